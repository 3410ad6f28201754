// The single-page app example (examples/spa), driven with JSON only, as its page's fetch calls do:
// same browser, cross-device handoff with the number, and the frontend-SDK token. The link opens
// /signin/finish: its GET is the app's page, its POST is the one mount's callback.
import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator } from '../../src/emulator/index.js';
import type { Emulator } from '../../src/emulator/index.js';
import { Browser } from './helpers/browser.js';
import { ensureBuilt } from './helpers/ensureBuild.js';
import { linkTo } from './helpers/inbox.js';

await ensureBuilt();
const { createApp } = await import('../../examples/spa/app.mjs');

const CLIENT = { clientId: 'spa-example-client', clientSecret: 'spa-example-secret-value' };
const LAPTOP =
  'Mozilla/5.0 (Macintosh; Intel Mac OS X 14_5) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Safari/605.1.15';
const PHONE =
  'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Mobile Safari/537.36';

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

async function start(): Promise<{ url: string }> {
  const server = createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const { app, close } = createApp({
    otpless: { ...CLIENT, authUrl: emulator.authUrl, userAuthUrl: emulator.userAuthUrl },
    origin: url,
    sessionKeys: ['spa-example-session-key-0123456789'],
    limits: false,
    log: () => {},
  });
  server.on('request', app);
  closers.push(async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
    await close();
  });
  return { url };
}

/** What the SPA's page does with the link: read `code` and `flow` from the URL it opened. */
async function openLink(email: string): Promise<{ landing: URL; code: string; flow: string }> {
  const res = await fetch(linkTo(emulator, email), { redirect: 'manual' });
  const landing = new URL(res.headers.get('location') ?? '');
  return { landing, code: landing.searchParams.get('code') ?? '', flow: landing.searchParams.get('flow') ?? '' };
}

async function ask(browser: Browser, email: string) {
  const sent = await browser.postJson('/api/auth/magic-link', { email });
  expect(sent.status).toBe(200);
  expect(sent.headers.get('content-type')).toMatch(/application\/json/);
  return sent.json<{ match: string }>();
}

describe('spa example (JSON only)', () => {
  it('same browser: the page posts the code and flow it opened with, and is signed in', async () => {
    const { url } = await start();
    const laptop = new Browser(url, LAPTOP);
    await ask(laptop, 'same@example.com');
    const { landing, code, flow } = await openLink('same@example.com');
    expect(landing.pathname).toBe('/signin/finish');
    // The SPA's page is what the link opens, even for a client asking for JSON: a GET spends nothing.
    for (const accept of ['text/html', 'application/json']) {
      const opened = await laptop.get(`${landing.pathname}${landing.search}`, { accept });
      expect(opened.status).toBe(200);
      expect(opened.text).toContain('<script type="module">');
    }
    expect((await laptop.get('/api/me', { accept: 'application/json' })).status).toBe(401);

    const login = await laptop.postJson(landing.pathname, { code, flow });
    expect(login.status).toBe(200);
    expect(login.json()).toEqual({ signedIn: true, redirect: '/' });
    expect((await laptop.get('/api/me', { accept: 'application/json' })).json()).toEqual({
      user: { id: expect.any(String), email: 'same@example.com' },
      verified: ['EMAIL'],
    });
  });

  it('the SPA is its own sign-in page, and a refused send answers JSON next to its field', async () => {
    const { url } = await start();
    const browser = new Browser(url, LAPTOP);
    const home = await browser.get('/');
    expect(home.status).toBe(200);
    expect(home.text).toContain('<form id="ask">');
    const refused = await browser.postJson('/api/auth/magic-link', { email: 'nobody@' });
    expect(refused.status).toBe(400);
    expect(refused.json()).toEqual({
      error: { code: 'INVALID_INPUT', message: expect.stringContaining('e-mail'), field: 'email' },
    });
    expect((await browser.get('/api/auth/status', { accept: 'application/json' })).json()).toEqual({ status: 'none' });
  });

  it('cross-device: the phone is asked for the number (202), approves with it, and the laptop signs in', async () => {
    const { url } = await start();
    const laptop = new Browser(url, LAPTOP);
    const { match } = await ask(laptop, 'handoff@example.com');
    const { code, flow } = await openLink('handoff@example.com');
    const phone = new Browser(url, PHONE);

    // The page's first POST has no number: "not answered yet", never a wrong guess.
    const first = await phone.postJson('/signin/finish', { code, flow });
    expect(first.status).toBe(202);
    expect(first.headers.get('content-type')).toMatch(/application\/json/);
    expect(first.json()).toEqual({
      approval: 'required',
      askedBy: { browser: 'Safari', os: 'macOS', at: expect.any(String) },
      field: 'match',
    });
    expect((await laptop.get('/api/auth/status', { accept: 'application/json' })).json()).toMatchObject({
      status: 'pending',
      match,
    });
    // The laptop asking too early is told to wait, and stays signed out.
    const early = await laptop.postJson('/signin/finish', {});
    expect(early.status).toBe(409);
    expect(early.json()).toEqual({ error: { code: 'FLOW_PENDING', message: expect.any(String) } });
    // Something that is not two digits is not an answer either: the flow still waits.
    const junk = await phone.postJson('/signin/finish', { code, flow, match: 'ab' });
    expect(junk.status).toBe(202);
    expect(junk.json()).toMatchObject({ error: { code: 'INVALID_NUMBER', field: 'match' } });

    const approved = await phone.postJson('/signin/finish', { code, flow, match });
    expect(approved.status).toBe(200);
    expect(approved.json()).toEqual({ approval: 'approved', message: expect.stringContaining('signed in') });
    // The phone itself is not signed in.
    expect((await phone.get('/api/me', { accept: 'application/json' })).status).toBe(401);

    expect((await laptop.get('/api/auth/status', { accept: 'application/json' })).json()).toMatchObject({
      status: 'approved',
    });
    const login = await laptop.postJson('/signin/finish', {});
    expect(login.status).toBe(200);
    expect(login.json()).toEqual({ signedIn: true, redirect: '/' });
    expect((await laptop.get('/api/me', { accept: 'application/json' })).json()).toMatchObject({
      user: { email: 'handoff@example.com' },
    });
  });

  it('cross-device: a wrong number denies for good, in JSON, and the laptop is told', async () => {
    const { url } = await start();
    const laptop = new Browser(url, LAPTOP);
    const { match } = await ask(laptop, 'wrong@example.com');
    const { code, flow } = await openLink('wrong@example.com');
    const phone = new Browser(url, PHONE);
    const wrong = String(((Number(match) - 10 + 1) % 90) + 10);
    const denied = await phone.postJson('/signin/finish', { code, flow, match: wrong });
    expect(denied.status).toBe(403);
    expect(denied.json()).toMatchObject({ approval: 'wrongNumber', error: { code: 'WRONG_NUMBER' } });
    expect((await laptop.get('/api/auth/status', { accept: 'application/json' })).json()).toMatchObject({
      status: 'denied',
    });
    const login = await laptop.postJson('/signin/finish', {});
    expect(login.status).toBe(403);
    expect(login.json()).toEqual({ error: { code: 'FLOW_DENIED', message: expect.any(String) } });
    expect((await laptop.get('/api/me', { accept: 'application/json' })).status).toBe(401);
  });

  it("cross-device: 'This wasn't me' in Hindi", async () => {
    const { url } = await start();
    const laptop = new Browser(url, LAPTOP);
    await ask(laptop, 'deny@example.com');
    const { code, flow } = await openLink('deny@example.com');
    const phone = new Browser(url, PHONE);
    const denied = await phone.postJson(
      '/signin/finish',
      { code, flow, decision: 'deny' },
      { 'accept-language': 'hi' },
    );
    expect(denied.status).toBe(200);
    expect(denied.json()).toEqual({ approval: 'denied', message: expect.stringContaining('साइन इन रद्द') });
  });

  it('the frontend-SDK token path', async () => {
    const { url } = await start();
    const browser = new Browser(url, LAPTOP);
    const forged = await browser.postJson('/signin/finish', { token: 'not-a-token-the-service-issued' });
    expect(forged.status).toBe(401);
    expect(forged.json()).toEqual({ error: { code: 'TOKEN_REJECTED', message: expect.any(String) } });
    const token = emulator.issueToken({ email: 'sdk@example.com' });
    const login = await browser.postJson('/signin/finish', { token });
    expect(login.status).toBe(200);
    expect(login.json()).toEqual({ signedIn: true, redirect: '/' });
    expect((await browser.get('/api/me', { accept: 'application/json' })).json()).toMatchObject({
      user: { email: 'sdk@example.com' },
      verified: ['EMAIL'],
    });
  });
});
