import type { Server } from 'node:http';
import { createClient } from 'redis';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator } from '../../src/emulator/index.js';
import type { Emulator } from '../../src/emulator/index.js';
import { Browser } from './helpers/browser.js';
import { ensureBuilt } from './helpers/ensureBuild.js';
import { linkTo, openLink } from './helpers/inbox.js';
import { hasRedisServer, REDIS_SERVER, startRedisServer } from '../helpers/redisServer.js';
import type { RedisServer } from '../helpers/redisServer.js';

const CLIENT = { clientId: 'redis-example-client', clientSecret: 'redis-example-secret-value' };

interface Instance {
  url: string;
  server: Server;
  close(): Promise<void>;
}

if (!hasRedisServer()) {
  describe('express-session-redis example', () => {
    it.skip(`needs ${REDIS_SERVER} (apt-get install -y redis-server); CI installs it`, () => {});
  });
} else {
  await ensureBuilt();
  const { createApp, listen } = await import('../../examples/express-session-redis/app.mjs');

  let redis: RedisServer;
  let emulator: Emulator;
  const instances: Instance[] = [];

  beforeAll(async () => {
    [redis, emulator] = await Promise.all([startRedisServer(), startEmulator({ clients: [CLIENT], quiet: true })]);
  });
  afterEach(async () => {
    await Promise.all(instances.splice(0).map((i) => i.close()));
  });
  afterAll(async () => {
    await Promise.all([redis?.stop(), emulator?.close()]);
  });

  /** Starts instance `name`; every instance shares Redis, the secret and the public callback URL. */
  async function instance(name: string, callbackUrl?: string): Promise<Instance & { callbackUrl: string }> {
    const { server, url } = await listen(0);
    const created = await createApp({
      otpless: { ...CLIENT, authUrl: emulator.authUrl, userAuthUrl: emulator.userAuthUrl },
      callbackUrl: callbackUrl ?? `${url}/auth/callback`,
      redisUrl: redis.url,
      sessionSecret: 'redis-example-session-secret',
      instance: name,
    });
    server.on('request', created.app);
    const started = {
      url,
      server,
      callbackUrl: callbackUrl ?? `${url}/auth/callback`,
      async close() {
        server.closeAllConnections();
        await new Promise<void>((resolve) => server.close(() => resolve()));
        await created.close();
      },
    };
    instances.push(started);
    return started;
  }

  /** Whether Redis holds the session a signed `example.sid` cookie value names. */
  async function sessionStored(cookie: string | undefined): Promise<boolean> {
    const sid = /^s:([^.]+)\./.exec(decodeURIComponent(cookie ?? ''))?.[1];
    if (!sid) throw new Error('not a signed session cookie');
    const client = createClient({ url: redis.url });
    await client.connect();
    try {
      return (await client.exists(`example:sess:${sid}`)) === 1;
    } finally {
      await client.quit();
    }
  }

  describe('express-session-redis example', () => {
    it('asks for the link on instance A, completes it on B, and is logged in on both', async () => {
      const b = await instance('B');
      const a = await instance('A', b.callbackUrl);
      const browser = new Browser(a.url);

      const sent = await browser.postJson(`${a.url}/auth/magic-link`, { email: 'shared@example.com' });
      expect(sent.status).toBe(200);
      expect(sent.headers.get('x-instance')).toBe('A');
      const before = browser.cookies()['example.sid'];
      expect(await sessionStored(before)).toBe(true);

      const callback = await openLink(browser, linkTo(emulator, 'shared@example.com'));
      expect(callback.headers.get('x-instance')).toBe('B');
      expect(callback.status).toBe(303);
      expect(callback.location).toBe(`${b.url}/me`);
      // Passport regenerated the session on login: a new id, and the old one is gone from Redis.
      expect(browser.cookies()['example.sid']).not.toBe(before);
      expect(await sessionStored(before)).toBe(false);
      expect(await sessionStored(browser.cookies()['example.sid'])).toBe(true);

      for (const at of [a, b]) {
        const me = await browser.get(`${at.url}/me`, { accept: 'application/json' });
        expect(me.status).toBe(200);
        expect(me.json()).toEqual({
          instance: at === a ? 'A' : 'B',
          // validate-token ran, so the id is the service's user id.
          user: { id: expect.stringMatching(/^\S+$/), email: 'shared@example.com' },
          risk: 'allow',
        });
      }
      const payments = await browser.get(`${a.url}/payments`, { accept: 'application/json' });
      expect(payments.status).toBe(200);
      expect(payments.json()).toMatchObject({ instance: 'A', risk: 'allow' });

      // The old cookie, as a stolen pre-login cookie would be, opens nothing.
      const old = await fetch(`${a.url}/me`, {
        headers: { cookie: `example.sid=${before}`, accept: 'application/json' },
      });
      expect(old.status).toBe(401);
    });

    it('keeps the login across a restart of an instance, and logs out everywhere', async () => {
      const a = await instance('A');
      const browser = new Browser(a.url);
      await browser.postForm(`${a.url}/auth/magic-link`, { email: 'restart@example.com' });
      expect((await openLink(browser, linkTo(emulator, 'restart@example.com'))).status).toBe(303);

      await a.close();
      instances.splice(instances.indexOf(a), 1);
      const again = await instance('A2');
      const me = await browser.get(`${again.url}/me`, { accept: 'application/json' });
      expect(me.status).toBe(200);
      expect(me.json()).toMatchObject({ instance: 'A2', user: { email: 'restart@example.com' } });

      const loggedIn = browser.cookies()['example.sid'];
      const other = await instance('B');
      expect((await browser.postForm(`${other.url}/logout`)).status).toBe(303);
      expect((await browser.get(`${again.url}/me`, { accept: 'application/json' })).status).toBe(401);
      expect(await sessionStored(loggedIn)).toBe(false);
    });

    it('guards payments by the risk of the login, on every instance', async () => {
      const b = await instance('B');
      const a = await instance('A', b.callbackUrl);
      const browser = new Browser(a.url);
      await browser.postJson(`${a.url}/auth/magic-link`, { email: 'vpn@example.com' });
      expect((await openLink(browser, linkTo(emulator, 'vpn@example.com'), 'vpn')).status).toBe(303);
      for (const at of [a, b]) {
        const res = await browser.get(`${at.url}/payments`, { accept: 'application/json' });
        expect(res.status).toBe(403);
        expect(res.json()).toEqual({ error: { code: 'RISK_CHALLENGE' } });
      }
    });

    it('completes a handoff across instances: asked on A, approved by the phone on B, finished on A', async () => {
      const b = await instance('B');
      const a = await instance('A', b.callbackUrl);
      const laptop = new Browser(a.url);
      const sent = await laptop.postForm(`${a.url}/auth/magic-link`, { mobile: '+14155550199' });
      expect(sent.status).toBe(303);
      expect(sent.location).toBe(`${a.url}/auth/waiting`);
      const waiting = await laptop.get(sent.location!);
      expect(waiting.headers.get('x-instance')).toBe('A');
      const match = /<p class="number"[^>]*>(\d{2})<\/p>/.exec(waiting.text)?.[1];
      expect(match).toMatch(/^\d{2}$/);

      // The phone (no session) opens the link on B and posts the number to B's callback.
      const phone = new Browser(b.url);
      const redirect = await phone.get(linkTo(emulator, '+14155550199'));
      const approval = await phone.get(redirect.location!);
      expect(approval.text).toContain('Approve sign-in on your computer?');
      const approved = await phone.postForm(redirect.location!, { match: match! });
      expect(approved.status).toBe(200);
      expect(approved.headers.get('x-instance')).toBe('B');

      // A sees the approval in Redis; its waiting page goes on to the callback, which signs in.
      const status = await laptop.get(`${a.url}/auth/status`, { accept: 'application/json' });
      expect(status.json()).toMatchObject({ status: 'approved' });
      const done = await laptop.get(`${a.url}/auth/callback`);
      expect(done.status).toBe(303);
      expect(done.location).toBe(`${a.url}/me`);
      const me = await laptop.get(`${a.url}/me`, { accept: 'application/json' });
      expect(me.json()).toMatchObject({ instance: 'A', user: { phone: '+14155550199' } });
      expect((await phone.get(`${b.url}/me`, { accept: 'application/json' })).status).toBe(401);
    });

    it('shows a browser without the session the approval page, not a login', async () => {
      const a = await instance('A');
      await new Browser(a.url).postJson(`${a.url}/auth/magic-link`, { email: 'elsewhere@example.com' });
      const phone = new Browser(a.url);
      const res = await openLink(phone, linkTo(emulator, 'elsewhere@example.com'));
      expect(res.status).toBe(200);
      expect(res.text).toContain('Approve sign-in on your computer?');
      expect((await phone.get(`${a.url}/me`, { accept: 'application/json' })).status).toBe(401);
    });
  });
}
