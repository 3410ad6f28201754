import { describe, expect, it } from 'vitest';
import { createClient } from 'redis';
import { Redis } from 'ioredis';
import { MagicLinkStrategy, MemoryFlowStore, RedisFlowStore } from '../../src/index.js';
import { OtplessClient } from '../../src/client/index.js';

const base = { clientId: 'id', clientSecret: 'secret', callbackUrl: 'https://app.example.com/auth/callback' };
const verify = async () => ({ id: 'u' });

describe('the store option', () => {
  it('takes a node-redis or an ioredis client (not connected yet: nothing is sent at construction)', () => {
    const nodeRedis = createClient();
    const ioredis = new Redis({ lazyConnect: true });
    expect(() => new MagicLinkStrategy({ ...base, store: nodeRedis }, verify)).not.toThrow();
    expect(() => new MagicLinkStrategy({ ...base, store: ioredis, storePrefix: 'app:' }, verify)).not.toThrow();
    ioredis.disconnect();
  });

  it('takes a FlowStore for other backends', () => {
    expect(() => new MagicLinkStrategy({ ...base, store: new MemoryFlowStore() }, verify)).not.toThrow();
  });

  it('refuses anything else, store with flowStore, and a bad prefix, naming the option', () => {
    expect(() => new MagicLinkStrategy({ ...base, store: {} }, verify)).toThrow(
      'MagicLinkStrategy: options.store must be',
    );
    expect(
      () => new MagicLinkStrategy({ ...base, store: createClient(), flowStore: new MemoryFlowStore() }, verify),
    ).toThrow('options.flowStore');
    expect(() => new MagicLinkStrategy({ ...base, storePrefix: 7 as never }, verify)).toThrow('options.storePrefix');
    expect(() => new RedisFlowStore({ client: { get() {} } })).toThrow('RedisFlowStore: options.client must be');
  });

  it('a ready client with a shared store needs a storeSecret of its own, the same on every instance', () => {
    const client = new OtplessClient({ clientId: 'id', clientSecret: 'secret' });
    const options = { client, callbackUrl: base.callbackUrl, store: createClient() };
    expect(() => new MagicLinkStrategy(options, verify)).toThrow('options.storeSecret');
    expect(() => new MagicLinkStrategy({ ...options, storeSecret: 'short' }, verify)).toThrow('options.storeSecret');
    expect(() => new MagicLinkStrategy({ ...options, storeSecret: 'x'.repeat(32) }, verify)).not.toThrow();
    // One process with memory state may use a random secret of its own.
    expect(() => new MagicLinkStrategy({ client, callbackUrl: base.callbackUrl }, verify)).not.toThrow();
  });
});
