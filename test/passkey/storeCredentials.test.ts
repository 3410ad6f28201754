// Passkeys in the package's store: the five calls of PasskeyCredentialStore over the memory store
// and a real Redis (when the machine has redis-server), two registrations racing for one user's
// list, and what a reader of the store sees (no address in a key).
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MemoryFlowStore, RedisFlowStore, StoreCredentials } from '../../src/index.js';
import type { FlowStore, PasskeyCredential } from '../../src/index.js';
import { hasRedisServer, startRedisServer } from '../helpers/redisServer.js';
import type { RedisServer } from '../helpers/redisServer.js';

function credential(id: string, userId = 'ana@example.com'): PasskeyCredential {
  return {
    id,
    userId,
    userHandle: 'aGFuZGxl',
    publicKey: 'cHVibGlj',
    counter: 0,
    transports: ['internal'],
    identities: [{ type: 'EMAIL', value: userId }],
    createdAt: 1_700_000_000_000,
  };
}

function contract(name: string, makeStore: () => FlowStore): void {
  describe(`StoreCredentials over ${name}`, () => {
    it('saves, finds, lists by user, updates the counter and removes', async () => {
      const store = makeStore();
      const credentials = new StoreCredentials(store);
      expect(await credentials.find('cred-1')).toBeUndefined();
      expect(await credentials.listByUser('ana@example.com')).toEqual([]);
      expect(await credentials.save(credential('cred-1'))).toBe(true);
      expect(await credentials.save(credential('cred-2'))).toBe(true);
      expect(await credentials.save(credential('cred-3', 'ben@example.com'))).toBe(true);
      // An id already saved is refused: a registration never replaces another's passkey.
      expect(await credentials.save(credential('cred-1', 'ben@example.com'))).toBe(false);
      expect(await credentials.find('cred-1')).toEqual(credential('cred-1'));
      expect((await credentials.listByUser('ana@example.com')).map((c) => c.id)).toEqual(['cred-1', 'cred-2']);
      expect((await credentials.listByUser('ben@example.com')).map((c) => c.id)).toEqual(['cred-3']);

      await credentials.updateCounter('cred-1', 7, 1_700_000_100_000);
      expect(await credentials.find('cred-1')).toMatchObject({ counter: 7, lastUsedAt: 1_700_000_100_000 });
      // A counter of a passkey that is gone changes nothing and creates nothing.
      await credentials.updateCounter('gone', 3, 1);
      expect(await credentials.find('gone')).toBeUndefined();

      expect(await credentials.remove('cred-1')).toBe(true);
      expect(await credentials.remove('cred-1')).toBe(false);
      expect(await credentials.find('cred-1')).toBeUndefined();
      expect((await credentials.listByUser('ana@example.com')).map((c) => c.id)).toEqual(['cred-2']);
    });

    it('keeps both of two registrations of one user that race', async () => {
      const credentials = new StoreCredentials(makeStore());
      const ids = Array.from({ length: 6 }, (_, i) => `race-${i}`);
      const saved = await Promise.all(ids.map((id) => credentials.save(credential(id, 'race@example.com'))));
      expect(saved).toEqual(ids.map(() => true));
      expect((await credentials.listByUser('race@example.com')).map((c) => c.id).sort()).toEqual(ids);
    });

    it('reads a malformed entry as no passkey', async () => {
      const store = makeStore();
      await store.create('passkey:cred:broken', '{"id":"broken"}', 60_000);
      await store.create('passkey:cred:notjson', 'nope', 60_000);
      const credentials = new StoreCredentials(store);
      expect(await credentials.find('broken')).toBeUndefined();
      expect(await credentials.find('notjson')).toBeUndefined();
    });
  });
}

contract('MemoryFlowStore', () => new MemoryFlowStore());

describe('what a reader of the store sees', () => {
  it('keys a user by a digest: no address in any key', async () => {
    const keys: string[] = [];
    const memory = new MemoryFlowStore();
    const watched: FlowStore = {
      create: (key, value, ttl) => (keys.push(key), memory.create(key, value, ttl)),
      get: (key) => memory.get(key),
      swap: (key, expected, next) => memory.swap(key, expected, next),
      take: (key) => memory.take(key),
    };
    await new StoreCredentials(watched).save(credential('cred-9'));
    expect(keys).toHaveLength(2);
    expect(keys[0]).toBe('passkey:cred:cred-9');
    expect(keys[1]).toMatch(/^passkey:user:[A-Za-z0-9_-]{43}$/);
    expect(keys.join(' ')).not.toContain('ana');
  });
});

if (hasRedisServer()) {
  let server: RedisServer;
  let client: Redis;
  beforeAll(async () => {
    server = await startRedisServer();
    client = new Redis({ port: server.port, lazyConnect: false });
  }, 60_000);
  afterAll(async () => {
    client?.disconnect();
    await server?.stop();
  });
  let n = 0;
  contract(
    'RedisFlowStore (ioredis, a real redis-server)',
    () => new RedisFlowStore({ client, prefix: `pk${(n += 1)}:` }),
  );
}
