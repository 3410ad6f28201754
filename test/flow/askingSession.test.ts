import { once } from 'node:events';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import expressSession from 'express-session';
import { Passport } from 'passport';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { MagicLinkStrategy, magicLinkRoutes } from '../../src/index.js';
import type { MagicLinkStrategyOptions } from '../../src/index.js';
import { startEmulator } from '../../src/emulator/index.js';
import type { Emulator } from '../../src/emulator/index.js';
import { Browser } from '../examples/helpers/browser.js';
import { linkTo } from '../examples/helpers/inbox.js';

// What a cross-device login leaves in the asking browser's session, read from the session
// store itself (express-session's MemoryStore, which keeps a session for as long as its cookie
// lives): once the handoff is over, only what a login needs (Passport's user and the login
// record), or nothing of the login at all.

const CLIENT = { clientId: 'asking-session-client', clientSecret: 'asking-session-secret-0123456789' };
// The link's lifetime: the emulator's manual clock and the app's clock move past it together.
const EXPIRY_SECONDS = 60;
let emulator: Emulator;
beforeAll(async () => {
  emulator = await startEmulator({ clients: [CLIENT], quiet: true, clock: 'manual' });
});
afterAll(() => emulator?.close());

const open: { server: Server; strategy: MagicLinkStrategy }[] = [];
afterEach(async () => {
  vi.useRealTimers();
  for (const { server, strategy } of open.splice(0)) {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
    await strategy.client.close();
  }
});

/** The Quick start's app (the one mount, express-session), with the store given. */
async function startApp(store: expressSession.MemoryStore): Promise<Browser> {
  const app = express();
  const server = app.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const strategy = new MagicLinkStrategy(
    {
      ...CLIENT,
      authUrl: emulator.authUrl,
      userAuthUrl: emulator.userAuthUrl,
      callbackUrl: `${url}/auth/callback`,
      expiry: EXPIRY_SECONDS,
    } as MagicLinkStrategyOptions & { passReqToCallback?: false },
    async (profile) => ({ id: profile.id }),
  );
  open.push({ server, strategy });
  const passport = new Passport();
  passport.use(strategy);
  passport.serializeUser((user: Express.User, done) => done(null, user));
  passport.deserializeUser((user: Express.User, done) => done(null, user));
  app.use(expressSession({ secret: 'asking-session-secret', resave: false, saveUninitialized: false, store }));
  app.use(passport.session());
  app.use(magicLinkRoutes(strategy, { passport, successRedirect: '/me' }));
  return new Browser(url);
}

/** Every session the store holds, parsed, by id. */
function storedSessions(store: expressSession.MemoryStore): Record<string, Record<string, unknown>> {
  const raw = (store as unknown as { sessions: Record<string, string> }).sessions;
  return Object.fromEntries(Object.entries(raw).map(([id, json]) => [id, JSON.parse(json) as Record<string, unknown>]));
}

/** The laptop's sessions' keys, sorted (its id changes when a login regenerates it). */
function keysOfEach(store: expressSession.MemoryStore): string[][] {
  return Object.values(storedSessions(store)).map((s) => Object.keys(s).sort());
}

let counter = 0;
const number = (): string => `+9198${String(30_000_000 + (counter += 1)).slice(-8)}`;

/** The laptop sends a link by SMS and opens its waiting page; the phone opens the link. */
async function askOnLaptop(laptop: Browser) {
  const to = number();
  expect((await laptop.postForm('/auth/magic-link', { mobile: to })).status).toBe(303);
  expect((await laptop.get('/auth/waiting')).status).toBe(200);
  const { match } = (await laptop.get('/auth/status', { accept: 'application/json' })).json<{ match: string }>();
  const phone = laptop.fresh();
  const callbackUrl = (await phone.get(linkTo(emulator, to))).location!;
  return { phone, match, callbackUrl };
}

describe("what a handoff leaves in the asking browser's session (express-session MemoryStore)", () => {
  it('in flight: the send and the waiting page record, nothing else', async () => {
    const store = new expressSession.MemoryStore();
    const laptop = await startApp(store);
    await askOnLaptop(laptop);
    expect(keysOfEach(store)).toEqual([['cookie', 'otplessPending', 'otplessWaiting']]);
  });

  it('approved on the phone and finished on the laptop: the login, and nothing of the send', async () => {
    const store = new expressSession.MemoryStore();
    const laptop = await startApp(store);
    const { phone, match, callbackUrl } = await askOnLaptop(laptop);
    expect((await phone.postForm(callbackUrl, { match })).status).toBe(200);
    // The phone is signed in nowhere and keeps no session.
    expect(keysOfEach(store)).toEqual([['cookie', 'otplessPending', 'otplessWaiting']]);
    const reload = await laptop.get('/auth/waiting');
    expect((await laptop.get(reload.location!)).location).toMatch(/\/me$/);
    expect(keysOfEach(store)).toEqual([['cookie', 'otpless', 'passport']]);
  });

  it('denied on the phone: the waiting record goes when the laptop is told, the send with the refused callback', async () => {
    const store = new expressSession.MemoryStore();
    const laptop = await startApp(store);
    const { phone, callbackUrl } = await askOnLaptop(laptop);
    expect((await phone.postForm(callbackUrl, { decision: 'deny' })).status).toBe(200);
    const status = await laptop.get('/auth/status', { accept: 'application/json' });
    expect(status.json()).toMatchObject({ status: 'denied' });
    expect(keysOfEach(store)).toEqual([['cookie', 'otplessPending']]);
    // The denial is still the callback's answer, and the callback takes the send out.
    expect((await laptop.get('/auth/callback', { accept: 'application/json' })).status).toBe(403);
    expect(keysOfEach(store)).toEqual([['cookie']]);
  });

  it('abandoned until the link expired: the next status answer says so and leaves nothing of the login but the sealed "send a new link"', async () => {
    const store = new expressSession.MemoryStore();
    const laptop = await startApp(store);
    const { phone, callbackUrl } = await askOnLaptop(laptop);
    // Past the link's expiry on both clocks: the service's (the emulator's) and the app's.
    emulator.advanceTime((EXPIRY_SECONDS + 1) * 1000);
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + (EXPIRY_SECONDS + 1) * 1000 });
    expect((await phone.get(callbackUrl)).status).toBe(401);
    expect(keysOfEach(store)).toEqual([['cookie', 'otplessPending', 'otplessWaiting']]);

    const status = await laptop.get('/auth/status', { accept: 'application/json' });
    expect(status.json()).toMatchObject({ status: 'expired' });
    // The waiting record stays (destination sealed) for one click to a new link, nothing else.
    expect(keysOfEach(store)).toEqual([['cookie', 'otplessWaiting']]);
    // Nothing to wait for any more: the waiting page says so and offers a new link.
    const again = await laptop.get('/auth/waiting');
    expect(again.status).toBe(200);
    expect(again.text).toContain('The link expired before it was used.');
    expect(again.text).toContain('>Send a new link</button>');
  });
});
