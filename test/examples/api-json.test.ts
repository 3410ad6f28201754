import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator } from '../../src/emulator/index.js';
import type { Emulator } from '../../src/emulator/index.js';
import { Browser } from './helpers/browser.js';
import { ensureBuilt } from './helpers/ensureBuild.js';
import { linkTo } from './helpers/inbox.js';
import type { SendLimitsOptions } from '../../src/index.js';

await ensureBuilt();
const { createApp } = await import('../../examples/api-json/app.mjs');

const CLIENT = { clientId: 'api-example-client', clientSecret: 'api-example-secret-value' };

let emulator: Emulator;
const closers: Array<() => Promise<void>> = [];

beforeAll(async () => {
  emulator = await startEmulator({ clients: [CLIENT], quiet: true });
});
afterEach(async () => {
  await Promise.all(closers.splice(0).map((close) => close()));
});
afterAll(async () => {
  await emulator.close();
});

interface Api {
  url: string;
  frontend: string;
  /** A client of the API as the single-page app's `fetch` is: `Accept: *\/*`, cookies kept. */
  client: Browser;
}

async function start(
  limits: SendLimitsOptions = {
    perIp: { limit: 100, windowSeconds: 60 },
    perDestination: { limit: 100, windowSeconds: 60 },
  },
): Promise<Api> {
  const server = createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const frontend = `${url}/signin/finish`;
  const { app, close } = createApp({
    otpless: { ...CLIENT, authUrl: emulator.authUrl, userAuthUrl: emulator.userAuthUrl },
    frontendCallbackURL: frontend,
    sessionKeys: ['api-example-session-key-0123456789'],
    limits,
    log: () => {},
  });
  server.on('request', app);
  closers.push(async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
    await close();
  });
  return { url, frontend, client: new Browser(url) };
}

/** What the frontend page does: read `?code=&flow=` from the URL the link opened. */
async function codeFromLink(link: string, risk?: string): Promise<{ landing: URL; code: string; flow: string }> {
  const url = new URL(link);
  if (risk) url.searchParams.set('risk', risk);
  const res = await fetch(url, { redirect: 'manual' });
  const landing = new URL(res.headers.get('location') ?? '');
  return { landing, code: landing.searchParams.get('code') ?? '', flow: landing.searchParams.get('flow') ?? '' };
}

/** The frontend page's path: the link opens it, and the page POSTs the code to it. */
const FINISH = '/signin/finish';

const star = { accept: '*/*' };

/** Sends, opens the link, POSTs `{ code, flow }` as the frontend page does; answers `/api/me`. */
async function logIn(api: Api, body: Record<string, string>, risk?: string): Promise<ReturnType<Browser['get']>> {
  const sent = await api.client.postJson('/api/auth/magic-link', body, star);
  expect(sent.status).toBe(200);
  const { code, flow } = await codeFromLink(linkTo(emulator, body.email ?? body.mobile ?? ''), risk);
  const login = await api.client.postJson(FINISH, { code, flow }, star);
  expect(login.json()).toEqual({ signedIn: true, redirect: '/' });
  return api.client.get('/api/me', star);
}

describe('api-json example', () => {
  it('sends a link, and logs in when the frontend POSTs the code from the link', async () => {
    const api = await start();
    const sent = await api.client.postJson('/api/auth/magic-link', { email: 'ana@example.com' }, star);
    expect(sent.status).toBe(200);
    expect(sent.json()).toEqual({
      sent: [expect.objectContaining({ type: 'EMAIL' })],
      // The number to show, for a link opened on another device (cross-device handoff).
      match: expect.stringMatching(/^\d{2}$/),
      expiresAt: expect.any(String),
    });
    expect(JSON.stringify(sent.json())).not.toMatch(/requestId|code|token/i);
    // The number again, for the frontend's polling (a link opened on another device).
    expect((await api.client.get('/api/auth/status', star)).json()).toEqual({
      status: 'pending',
      match: (sent.json() as { match: string }).match,
      expiresAt: expect.any(String),
    });

    const { landing, code, flow } = await codeFromLink(linkTo(emulator, 'ana@example.com'));
    expect(`${landing.origin}${landing.pathname}`).toBe(api.frontend);
    const login = await api.client.postJson(FINISH, { code, flow }, star);
    expect(login.status).toBe(200);
    expect(login.headers.get('content-type')).toMatch(/application\/json/);
    expect(login.json()).toEqual({ signedIn: true, redirect: '/' });

    expect((await api.client.get('/api/me', star)).json()).toEqual({
      user: { id: expect.any(String), email: 'ana@example.com', phone: null },
      verified: ['EMAIL'],
      risk: 'allow',
    });
    expect((await api.client.get('/api/payments', star)).status).toBe(200);
    const alerts = await api.client.get('/api/sms-alerts', star);
    expect(alerts.status).toBe(403);
    expect(alerts.json()).toEqual({ error: { code: 'IDENTITY_REQUIRED' } });
  });

  it('opens /api/sms-alerts for a login by mobile number', async () => {
    const api = await start();
    expect((await logIn(api, { mobile: '+91 98765 43210' })).status).toBe(200);
    const alerts = await api.client.get('/api/sms-alerts', star);
    expect(alerts.status).toBe(200);
    expect(alerts.json()).toEqual({ alerts: [] });
  });

  it('answers JSON errors: bad input next to its field, wrong media type, bad JSON', async () => {
    const api = await start();
    const bad = await api.client.postJson('/api/auth/magic-link', { email: 'nobody@' }, star);
    expect(bad.status).toBe(400);
    expect(bad.json()).toEqual({
      error: { code: 'INVALID_INPUT', message: expect.stringContaining('e-mail'), field: 'email' },
    });

    const form = await api.client.postForm('/api/auth/magic-link', { email: 'form@example.com' }, star);
    expect(form.status).toBe(415);
    expect(form.json()).toMatchObject({ error: { code: 'UNSUPPORTED_MEDIA_TYPE' } });
    expect(emulator.outbox().some((e) => e.to === 'form@example.com')).toBe(false);
    const formCallback = await api.client.postForm(FINISH, { code: 'x', flow: 'y' }, star);
    expect(formCallback.status).toBe(415);
    expect(formCallback.json()).toMatchObject({ error: { code: 'UNSUPPORTED_MEDIA_TYPE' } });

    const broken = await fetch(`${api.url}/api/auth/magic-link`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"email":',
    });
    expect(broken.status).toBe(400);
    expect(await broken.json()).toEqual({
      error: { code: 'INVALID_INPUT', message: 'The request body is not valid JSON.' },
    });

    // The mount reads the body itself, and stops at 16 KiB: a sign-in is a few hundred bytes.
    const huge = await api.client.postJson(
      '/api/auth/magic-link',
      { email: `${'a'.repeat(20_000)}@example.com` },
      star,
    );
    expect(huge.status).toBe(413);
    expect(huge.json()).toMatchObject({ error: { code: 'BODY_TOO_LARGE' } });
  });

  it('answers 401 JSON to a client that is not signed in', async () => {
    const api = await start();
    for (const path of ['/api/me', '/api/payments', '/api/sms-alerts']) {
      const res = await api.client.get(path, star);
      expect(res.status).toBe(401);
      expect(res.json()).toMatchObject({ error: { code: 'UNAUTHENTICATED' } });
    }
  });

  it('spends codes only on POST: a GET of the link (a mail scanner) does nothing', async () => {
    const api = await start();
    await api.client.postJson('/api/auth/magic-link', { email: 'scanned@example.com' }, star);
    const { landing, code, flow } = await codeFromLink(linkTo(emulator, 'scanned@example.com'));
    for (const accept of ['text/html', '*/*']) {
      const scanned = await api.client.get(`${landing.pathname}${landing.search}`, { accept });
      expect(scanned.status).toBe(404);
      expect(scanned.json()).toMatchObject({ error: { code: 'NOT_FOUND' } });
    }
    expect((await api.client.get('/api/me', star)).status).toBe(401);
    expect((await api.client.postJson(FINISH, { code, flow }, star)).status).toBe(200);
  });

  it('refuses a replayed code, a code from another client, and a risky login on guarded endpoints', async () => {
    const api = await start();
    await api.client.postJson('/api/auth/magic-link', { email: 'replay@example.com' }, star);
    const { code } = await codeFromLink(linkTo(emulator, 'replay@example.com'));

    // The code alone (no flow): another client cannot use it.
    const other = api.client.fresh();
    const elsewhere = await other.postJson(FINISH, { code }, star);
    expect(elsewhere.status).toBe(403);
    expect(elsewhere.json()).toMatchObject({ error: { code: 'WRONG_BROWSER' } });

    expect((await api.client.postJson(FINISH, { code }, star)).status).toBe(200);
    // A new link is pending in this client, so the old code reaches the service, which refuses it.
    await api.client.postJson('/api/auth/magic-link', { email: 'replay@example.com' }, star);
    const replay = await api.client.postJson(FINISH, { code }, star);
    expect(replay.status).toBe(401);
    expect(replay.json()).toMatchObject({
      error: { code: 'CODE_REJECTED', message: expect.stringContaining('already used') },
    });

    const risky = await start();
    expect((await logIn(risky, { email: 'vpn@example.com' }, 'vpn')).json()).toMatchObject({ risk: 'challenge' });
    const payments = await risky.client.get('/api/payments', star);
    expect(payments.status).toBe(403);
    expect(payments.json()).toEqual({ error: { code: 'RISK_CHALLENGE' } });
  });

  it('accepts a frontend-SDK token from its own origin only', async () => {
    const api = await start();
    const token = emulator.issueToken({ email: 'sdk@example.com' });
    const forged = await api.client.postJson(FINISH, { token }, { ...star, origin: 'https://evil.example' });
    expect(forged.status).toBe(403);
    expect(forged.json()).toMatchObject({ error: { code: 'CROSS_SITE' } });
    const login = await api.client.postJson(FINISH, { token }, { ...star, origin: api.url });
    expect(login.status).toBe(200);
    expect(login.json()).toEqual({ signedIn: true, redirect: '/' });
    expect((await api.client.get('/api/me', star)).json()).toMatchObject({
      user: { email: 'sdk@example.com' },
      verified: ['EMAIL'],
      risk: 'allow',
    });
  });

  it('logs out with 204', async () => {
    const api = await start();
    await logIn(api, { email: 'bye@example.com' });
    expect((await api.client.postJson('/api/auth/logout', {}, star)).status).toBe(204);
    expect((await api.client.get('/api/me', star)).status).toBe(401);
  });

  it('limits sends per IP with a JSON 429', async () => {
    const api = await start({ perIp: { limit: 2, windowSeconds: 60 } });
    for (const email of ['l1@example.com', 'l2@example.com']) {
      expect((await api.client.postJson('/api/auth/magic-link', { email }, star)).status).toBe(200);
    }
    const limited = await api.client.postJson('/api/auth/magic-link', { email: 'l3@example.com' }, star);
    expect(limited.status).toBe(429);
    expect(limited.json()).toEqual({
      error: {
        code: 'RATE_LIMITED',
        message: 'Too many sign-in links were asked for from this network. Try again in 1 minute.',
        retryAfterSeconds: expect.any(Number),
      },
    });
    const body = limited.json() as { error: { retryAfterSeconds: number } };
    expect(Number(limited.headers.get('retry-after'))).toBe(body.error.retryAfterSeconds);
  });
});
