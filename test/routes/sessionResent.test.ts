// OTPLESS_SESSION_RESENT: Fastify with @fastify/session over real sockets and the emulator. A
// waiting page's poll that changes nothing gets no session cookie back with `rolling: false`
// (the guide's set-up): no warning. With @fastify/session's default (`rolling: true`) the poll's
// answer carries the session's cookie again, and the operator is told once, however many polls.
import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import fastifyCookie from '@fastify/cookie';
import { Authenticator } from '@fastify/passport';
import fastifySession from '@fastify/session';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MagicLinkStrategy, otplessFastify } from '../../src/index.js';
import { startEmulator } from '../../src/emulator/index.js';
import type { Emulator } from '../../src/emulator/index.js';
import { Browser } from '../examples/helpers/browser.js';
import { CLIENT } from '../helpers/harness.js';
import { settleWarnings, watchWarnings } from '../helpers/warnings.js';

const JSON_ACCEPT = { accept: 'application/json' };
const warnings = watchWarnings();

let emulator: Emulator;
beforeAll(async () => {
  emulator = await startEmulator({ clients: [CLIENT], quiet: true });
});
afterAll(() => emulator?.close());

/** The guide's Fastify app on @fastify/session, with `rolling` as given (undefined: its default). */
async function startApp(rolling: boolean | undefined) {
  const server = createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const strategy = new MagicLinkStrategy(
    { ...CLIENT, authUrl: emulator.authUrl, userAuthUrl: emulator.userAuthUrl, callbackUrl: `${url}/auth/callback` },
    async (profile) => ({ id: profile.id }),
  );
  const app = Fastify({ serverFactory: (handler) => server.on('request', handler) });
  const passport = new Authenticator();
  await app.register(fastifyCookie);
  await app.register(fastifySession, {
    secret: 'resent-fastify-session-secret-0123456789',
    cookie: { secure: false, path: '/' },
    saveUninitialized: false,
    ...(rolling === undefined ? {} : { rolling }),
  });
  await app.register(passport.initialize());
  await app.register(passport.secureSession());
  passport.use(strategy.name, strategy);
  passport.registerUserSerializer(async (user: unknown) => user);
  passport.registerUserDeserializer(async (user: unknown) => user);
  await app.register(otplessFastify({ strategy, passport, successRedirect: '/me' }));
  await app.ready();
  return {
    url,
    close: async () => {
      server.closeAllConnections();
      await app.close();
      await strategy.client.close();
    },
  };
}

/** A send, then `polls` polls of the waiting page: what each poll's answer set as cookies. */
async function sendThenPoll(url: string, polls: number): Promise<string[][]> {
  const browser = new Browser(url);
  expect((await browser.postJson('/auth/magic-link', { email: 'resent@example.com' })).status).toBe(200);
  expect(browser.cookies().sessionId).toBeDefined();
  const cookies: string[][] = [];
  for (let i = 0; i < polls; i += 1) {
    const poll = await browser.get('/auth/status', JSON_ACCEPT);
    expect(poll.status).toBe(200);
    expect(poll.json()).toMatchObject({ status: 'pending' });
    cookies.push(poll.headers.getSetCookie());
  }
  await settleWarnings();
  return cookies;
}

describe('OTPLESS_SESSION_RESENT', () => {
  it('rolling: false (as the guide registers it): the poll gets no cookie back, and nothing is said', async () => {
    const app = await startApp(false);
    try {
      expect(await sendThenPoll(app.url, 2)).toEqual([[], []]);
      expect(warnings).toEqual([]);
    } finally {
      await app.close();
    }
  });

  it("@fastify/session's default: each poll re-sends the session's cookie, and the operator is told once", async () => {
    const app = await startApp(undefined);
    try {
      const cookies = await sendThenPoll(app.url, 3);
      for (const sent of cookies) expect(sent.join()).toMatch(/^sessionId=/);
      expect(warnings.map((w) => w.code)).toEqual(['OTPLESS_SESSION_RESENT']);
      expect(warnings[0]!.message).toContain('rolling: false');
    } finally {
      await app.close();
    }
  });
});
