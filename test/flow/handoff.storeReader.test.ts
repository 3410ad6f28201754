// The store reader: someone who reads every Redis key and every session of an app that keeps
// both in one Redis (express-session on connect-redis, flows and used tokens in the same
// Redis). With all of it in hand they sign in as nobody, approve nothing and deny nothing.
import { createDecipheriv, hkdfSync } from 'node:crypto';
import { RedisStore } from 'connect-redis';
import { createClient } from 'redis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RedisFlowStore } from '../../src/index.js';
import { startEmulator, type Emulator } from '../../src/emulator/index.js';
import { CLIENT, clickLink, lastLinkTo, loginVia, startHarness, type Harness } from '../helpers/harness.js';
import { hasRedisServer, startRedisServer, type RedisServer } from '../helpers/redisServer.js';

/** Every string in a value, JSON inside strings included, and the parts of dotted or colon-joined ones. */
function stringsIn(value: unknown, out: Set<string>): void {
  if (typeof value === 'string') {
    if (out.has(value)) return;
    out.add(value);
    for (const part of value.split(/[.:]/)) if (part.length > 0) out.add(part);
    try {
      stringsIn(JSON.parse(value), out);
    } catch {
      // Not JSON: the string itself is what there is.
    }
  } else if (typeof value === 'number') {
    out.add(String(value));
  } else if (Array.isArray(value)) {
    for (const item of value) stringsIn(item, out);
  } else if (value && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) {
      out.add(k);
      stringsIn(v, out);
    }
  }
}

/**
 * What a reader can open with what it found: a sealed `iv.tag.body` value tried under a key
 * derived from each string found, as earlier versions of this package derived the approval's key.
 */
function openWithFoundKeys(sealed: string, found: Iterable<string>): unknown[] {
  const [iv, tag, body] = sealed.split('.').map((p) => Buffer.from(p, 'base64url'));
  if (!iv || !tag || !body || iv.length !== 12 || tag.length !== 16) return [];
  const opened: unknown[] = [];
  for (const candidate of found) {
    for (const info of ['flow seal v1', 'flow approval v2']) {
      try {
        const key = Buffer.from(hkdfSync('sha256', candidate, 'passport-otpless', info, 32));
        const decipher = createDecipheriv('aes-256-gcm', key, iv);
        decipher.setAuthTag(tag);
        opened.push(JSON.parse(Buffer.concat([decipher.update(body), decipher.final()]).toString('utf8')));
      } catch {
        // Not this key.
      }
    }
  }
  return opened;
}

describe.skipIf(!hasRedisServer())('a reader of every Redis key and every session', () => {
  let server: RedisServer;
  let redis: ReturnType<typeof createClient>;
  let emulator: Emulator;
  let h: Harness;

  beforeAll(async () => {
    server = await startRedisServer();
    redis = createClient({ url: server.url });
    await redis.connect();
    emulator = await startEmulator({ clients: [CLIENT], quiet: true });
    h = await startHarness({
      emulator,
      session: 'express',
      sessionStore: new RedisStore({ client: redis, prefix: 'sess:' }),
      // The attacker asks for as many links to themselves as they like: limits are not what is tested.
      strategy: { store: new RedisFlowStore({ client: redis, prefix: 'otpless:' }), limits: false },
    });
  }, 30_000);
  afterAll(async () => {
    await h?.close();
    await emulator?.close();
    await redis?.quit();
    await server?.stop();
  });

  it('signs in as nobody, approves nothing and denies nothing', async () => {
    // Three victims: one signed in, one approved on the phone but not yet back on the laptop,
    // one still waiting for the phone.
    expect((await loginVia(h, h.browser(), { email: 'signed-in@example.com' })).status).toBe(302);
    const approvedLaptop = h.browser();
    const approvedSend = await approvedLaptop
      .post('/auth/magic-link')
      .set('accept', 'application/json')
      .send({ email: 'approved@example.com' });
    const approvedLink = await clickLink(lastLinkTo(emulator, 'approved@example.com'));
    const phone = await h.browser().post(approvedLink).type('form').send({ match: approvedSend.body.match });
    expect(phone.text).toContain('You are signed in on your computer');
    const waitingLaptop = h.browser();
    await waitingLaptop
      .post('/auth/magic-link')
      .set('accept', 'application/json')
      .send({ email: 'waiting@example.com' });

    // The reader takes everything.
    const found = new Set<string>();
    for (const key of await redis.keys('*')) {
      stringsIn(key, found);
      if ((await redis.type(key)) === 'string') stringsIn(await redis.get(key), found);
    }
    for (const value of [...found]) {
      if (value.split('.').length === 3)
        for (const opened of openWithFoundKeys(value, [...found])) stringsIn(opened, found);
    }
    const eve = h.browser();

    // 1. Every value as a frontend token.
    for (const value of found) {
      const res = await eve.post('/auth/callback').type('form').send({ token: value });
      expect(res.status, `token ${value}`).not.toBe(302);
    }

    // 2. Every value that names a live flow (its approval page shows), with codes of the
    //    reader's own sends: "This wasn't me", then every number, those found first.
    const eveCode = async (): Promise<string> => {
      await eve.post('/auth/magic-link').set('accept', 'application/json').send({ email: 'eve@example.com' });
      return new URL(await clickLink(lastLinkTo(emulator, 'eve@example.com')), h.baseUrl).searchParams.get('code')!;
    };
    const flowIds: string[] = [];
    for (const value of found) {
      if (!/^[A-Za-z0-9_-]{22}$/.test(value)) continue;
      const page = await eve.get(`/auth/callback?code=probe&flow=${value}`);
      if (page.status === 200) flowIds.push(value);
    }
    // The sessions name their flows only sealed: nothing found opens an approval page. The flow
    // ids of the two waiting flows are then tried as if the reader had them anyway.
    expect(flowIds).toEqual([]);
    for (const link of [lastLinkTo(emulator, 'waiting@example.com')]) {
      flowIds.push(new URL(await clickLink(link), h.baseUrl).searchParams.get('flow')!);
    }
    const numbers = [
      ...new Set([
        ...[...found].filter((v) => /^\d\d$/.test(v)),
        ...Array.from({ length: 90 }, (_, i) => String(i + 10)),
      ]),
    ];
    for (const flowId of flowIds) {
      await eve
        .post(`/auth/callback?code=${await eveCode()}&flow=${flowId}`)
        .type('form')
        .send({ decision: 'deny' });
      for (const match of numbers) {
        const res = await eve
          .post(`/auth/callback?code=${await eveCode()}&flow=${flowId}`)
          .type('form')
          .send({ match });
        expect(res.text).not.toContain('You are signed in on your computer');
      }
    }

    // Nobody is signed in as anyone else; the waiting flow still waits; the approved one is its owner's.
    expect((await eve.get('/me')).status).toBe(401);
    expect((await waitingLaptop.get('/auth/status')).body.status).toBe('pending');
    expect((await approvedLaptop.get('/auth/callback')).status).toBe(302);
    expect((await approvedLaptop.get('/me')).body.user.email).toBe('approved@example.com');
  }, 120_000);
});
