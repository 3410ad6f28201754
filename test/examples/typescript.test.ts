import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator } from '../../src/emulator/index.js';
import type { Emulator } from '../../src/emulator/index.js';
// The TypeScript example imports the package's source, so no build is needed here.
import { createApp, toAppUser } from '../../examples/typescript/app.js';
import type { AppUser } from '../../examples/typescript/app.js';
import { Browser } from './helpers/browser.js';
import { linkTo, openLink } from './helpers/inbox.js';

const CLIENT = { clientId: 'ts-example-client', clientSecret: 'ts-example-secret-value' };

let emulator: Emulator;
let browser: Browser;
let close: () => Promise<void>;

beforeAll(async () => {
  emulator = await startEmulator({ clients: [CLIENT], quiet: true });
  const server = createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const created = createApp({
    otpless: { ...CLIENT, authUrl: emulator.authUrl, userAuthUrl: emulator.userAuthUrl },
    callbackUrl: `${url}/auth/callback`,
    sessionKeys: ['ts-example-session-key-0123456789'],
  });
  server.on('request', created.app);
  browser = new Browser(url);
  close = async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
    await created.close();
  };
});
afterAll(async () => {
  await close?.();
  await emulator?.close();
});

describe('typescript example', () => {
  it('logs in and answers /me from the typed req.user', async () => {
    const sent = await browser.postJson('/auth/magic-link', { mobile: '+44 7400 123456' });
    expect(sent.status).toBe(200);
    const callback = await openLink(browser, linkTo(emulator, '+447400123456'));
    expect(callback.status).toBe(303);
    expect(callback.location).toMatch(/\/me$/);

    const me = await browser.get('/me', { accept: 'application/json' });
    expect(me.status).toBe(200);
    expect(me.json()).toEqual({
      id: expect.any(String),
      displayName: 'User 3456',
      phone: '+447400123456',
      verified: ['MOBILE'],
      canSms: true,
    });
    const payments = await browser.get('/payments', { accept: 'application/json' });
    expect(payments.json()).toEqual({ risk: 'allow', stale: false });
  });

  it('asks a browser that did not ask for the link to approve it, instead of signing it in', async () => {
    await browser.postJson('/auth/magic-link', { email: 'typed@example.com' });
    const res = await openLink(browser.fresh(), linkTo(emulator, 'typed@example.com'));
    expect(res.status).toBe(200);
    expect(res.text).toContain('Approve sign-in on your computer?');
  });

  it('maps a profile to an AppUser with only what the profile has', async () => {
    const user: AppUser = await toAppUser({
      provider: 'otpless',
      id: 'u1',
      emails: [{ value: 'a@example.com', verified: true }],
      phoneNumbers: [],
      identities: [{ type: 'EMAIL', value: 'a@example.com', methods: [], verified: true }],
      _json: {},
    });
    expect(user).toEqual({ id: 'u1', email: 'a@example.com', verified: ['EMAIL'] });
  });
});
