import { describe, expect, it } from 'vitest';
import { MagicLinkStrategy, MemoryFlowStore, SendLimiter } from '../../src/index.js';
import type { FlowStore, MagicLinkStrategyOptions } from '../../src/index.js';
import { OtplessClient } from '../../src/client/index.js';
import { LOGIN_SETUP, setupOf } from '../../src/login/compose.js';
import { CLIENT, clickLink, lastLinkTo } from '../helpers/harness.js';
import type { Harness } from '../helpers/harness.js';
import { useSharedEmulator } from '../helpers/sharedEmulator.js';

// The composition root (src/login/compose.ts): the parts a strategy builds from its options
// (client, store, secrets, handoff, limiter), the options it checks itself, and what an app
// sees of each part in a real login.

const { harness, emulator } = useSharedEmulator();

const verify = async (profile: { id: string }) => ({ id: profile.id });
const SECRET = 'a-store-secret-of-the-app-0123456789abcdef';

/** Options of a strategy on the shared emulator, with `extra` over them. */
function options(
  extra: Partial<MagicLinkStrategyOptions> = {},
): MagicLinkStrategyOptions & { passReqToCallback?: false } {
  return {
    ...CLIENT,
    authUrl: emulator().authUrl,
    userAuthUrl: emulator().userAuthUrl,
    callbackUrl: 'http://127.0.0.1:3000/auth/callback',
    ...extra,
  } as MagicLinkStrategyOptions & { passReqToCallback?: false };
}

function make(extra: Partial<MagicLinkStrategyOptions | Record<string, unknown>>): MagicLinkStrategy {
  return new MagicLinkStrategy(options(extra as Partial<MagicLinkStrategyOptions>), verify as never);
}

/** A store of the app's own (a FlowStore that is not the memory store): state shared by instances. */
function sharedStore(): FlowStore {
  const inner = new MemoryFlowStore();
  return {
    create: (key, value, ttlMs) => inner.create(key, value, ttlMs),
    get: (key) => inner.get(key),
    swap: (key, expected, next) => inner.swap(key, expected, next),
    take: (key) => inner.take(key),
  } as FlowStore;
}

let counter = 0;
const address = (): string => `compose-${(counter += 1)}@example.com`;

async function send(h: Harness, browser: ReturnType<Harness['browser']>, email: string) {
  return browser.post('/auth/magic-link').set('accept', 'application/json').send({ email });
}

describe('the client', () => {
  it('refuses a `client` that is not an OtplessClient, naming the option', () => {
    expect(() => make({ client: { verifyCode() {} } as never })).toThrow(TypeError);
    expect(() => make({ client: { verifyCode() {} } as never })).toThrow(
      'MagicLinkStrategy: options.client must be an OtplessClient',
    );
  });

  it('uses a given OtplessClient as it is, and logs in through it', async () => {
    const client = new OtplessClient({ ...CLIENT, authUrl: emulator().authUrl, userAuthUrl: emulator().userAuthUrl });
    const h = await harness({ strategy: { client, clientId: undefined, clientSecret: undefined } as never });
    expect(h.strategy.client).toBe(client);
    const browser = h.browser();
    const email = address();
    expect((await send(h, browser, email)).status).toBe(200);
    expect((await browser.get(await clickLink(lastLinkTo(h.emulator, email)))).status).toBe(302);
    expect((await browser.get('/me')).body.user.id).toBe(email);
  });

  it("builds one from the client's options, which the client checks, never echoing the secret", () => {
    expect(() => make({ clientId: '' })).toThrow(/clientId/);
    let message = '';
    try {
      make({ authUrl: 'not a url' });
    } catch (err) {
      message = (err as Error).message;
    }
    expect(message).not.toBe('');
    expect(message).not.toContain(CLIENT.clientSecret);
    const built = make({});
    expect(built.client).toBeInstanceOf(OtplessClient);
    void built.client.close();
  });
});

describe('the store', () => {
  it('refuses a value that is neither a Redis client nor a FlowStore, naming the option', () => {
    expect(() => make({ store: { get() {} } as never })).toThrow(TypeError);
    expect(() => make({ store: { get() {} } as never })).toThrow(/options\.store must be .*a FlowStore/);
  });

  it('keeps flows in a FlowStore given as it is', async () => {
    const store = new MemoryFlowStore();
    const h = await harness({ strategy: { store } });
    const setup = setupOf('test', h.strategy);
    expect(setup.store).toBe(store);
    expect(setup.sharedState).toBe(false);
    const browser = h.browser();
    const email = address();
    await send(h, browser, email);
    expect((await browser.get(await clickLink(lastLinkTo(h.emulator, email)))).status).toBe(302);
  });

  it('needs storeSecret with a ready client and a shared store (instances must agree on it)', () => {
    const client = new OtplessClient({ ...CLIENT, authUrl: emulator().authUrl, userAuthUrl: emulator().userAuthUrl });
    const base = { client, clientId: undefined, clientSecret: undefined };
    expect(() => make({ ...base, store: sharedStore() })).toThrow(
      /MagicLinkStrategy: options\.storeSecret must be a secret of at least 32 characters, the same on every instance/,
    );
    expect(() => make({ ...base, store: sharedStore(), storeSecret: SECRET })).not.toThrow();
    // One process with its memory: a random secret of its own will do.
    expect(() => make({ ...base })).not.toThrow();
    void client.close();
  });

  it('derives the keys from the client secret: two instances on one store share the used-token marks', async () => {
    const store = sharedStore();
    const a = await harness({ strategy: { store } });
    const b = await harness({ strategy: { store } });
    const token = emulator().issueToken({ email: address() });
    expect((await a.browser().post('/auth/callback').type('form').send({ token })).status).toBe(302);
    // Spent on the first instance: the second finds its mark, under the same key.
    expect((await b.browser().post('/auth/callback').type('form').send({ token })).status).toBe(401);
  });

  it('keys by storeSecret when given: instances with different secrets do not read each other’s marks', async () => {
    const store = sharedStore();
    const a = await harness({ strategy: { store, storeSecret: SECRET } });
    const b = await harness({ strategy: { store, storeSecret: `${SECRET}-other` } });
    const token = emulator().issueToken({ email: address() });
    expect((await a.browser().post('/auth/callback').type('form').send({ token })).status).toBe(302);
    expect((await b.browser().post('/auth/callback').type('form').send({ token })).status).toBe(302);
  });
});

describe('the send limits', () => {
  it('are on by default: the sixth send to one address in 15 minutes is 429 RATE_LIMITED', async () => {
    const h = await harness();
    const browser = h.browser();
    const email = address();
    for (let i = 0; i < 5; i += 1) expect((await send(h, browser, email)).status).toBe(200);
    const refused = await send(h, browser, email);
    expect(refused.status).toBe(429);
    expect(refused.body.error.code).toBe('RATE_LIMITED');
  });

  it('are off with `limits: false`', async () => {
    const h = await harness({ strategy: { limits: false } });
    expect(setupOf('test', h.strategy).limiter).toBeUndefined();
    const browser = h.browser();
    const email = address();
    for (let i = 0; i < 7; i += 1) expect((await send(h, browser, email)).status).toBe(200);
  });

  it('take a SendLimiter as it is, and options that build one', async () => {
    const limiter = new SendLimiter({ perDestination: { limit: 1, windowSeconds: 60 } });
    const given = await harness({ strategy: { limits: limiter } });
    expect(setupOf('test', given.strategy).limiter).toBe(limiter);
    const built = await harness({ strategy: { limits: { perDestination: { limit: 2, windowSeconds: 60 } } } });
    for (const [h, allowed] of [
      [given, 1],
      [built, 2],
    ] as const) {
      const browser = h.browser();
      const email = address();
      for (let i = 0; i < allowed; i += 1) expect((await send(h, browser, email)).status).toBe(200);
      expect((await send(h, browser, email)).status).toBe(429);
    }
  });

  it('refuse a misspelt limit, naming it as an option of the strategy (`limits.<name>`)', () => {
    expect(() => make({ limits: { perDestinaton: { limit: 1, windowSeconds: 60 } } as never })).toThrow(
      /MagicLinkStrategy: options\.limits\.perDestinaton is not an option \(did you mean limits\.perDestination\?\)/,
    );
  });
});

describe('the handoff', () => {
  it("is built only in 'handoff' mode (the default)", () => {
    expect(setupOf('test', make({})).handoff).toBeDefined();
    expect(setupOf('test', make({ crossDevice: 'refuse' })).handoff).toBeUndefined();
    expect(setupOf('test', make({ crossDevice: 'accept', confirm: true })).handoff).toBeUndefined();
  });
});

describe('setupOf()', () => {
  it('refuses anything but a MagicLinkStrategy with a TypeError naming who was given it', () => {
    for (const value of [undefined, null, 'strategy', {}, { name: 'magic-link' }]) {
      expect(() => setupOf('magicLinkRoutes()', value)).toThrow(
        'magicLinkRoutes(): the first argument must be a MagicLinkStrategy',
      );
    }
  });

  it('keeps the setup out of sight: not an enumerable key of the strategy', () => {
    const strategy = make({});
    expect(Object.getOwnPropertyDescriptor(strategy, LOGIN_SETUP)).toMatchObject({ enumerable: false });
    // A spread or a log of the strategy carries no setup (and so no secret of it).
    expect(LOGIN_SETUP in { ...strategy }).toBe(false);
    expect(setupOf('test', strategy).callbackUrl).toBe('http://127.0.0.1:3000/auth/callback');
  });
});
