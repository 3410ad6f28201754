import { once } from 'node:events';
import { request } from 'node:http';
import type { IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import expressSession from 'express-session';
import { Passport } from 'passport';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { MagicLinkStrategy, magicLinkRoutes } from '../../src/index.js';
import { startEmulator } from '../../src/emulator/index.js';
import type { Emulator } from '../../src/emulator/index.js';

// The three setup mistakes a first login meets and nothing else reported: each told once to the
// operator (a PassportOtplessWarning with its code), never to the visitor. Isolated: each
// warning is emitted once per process.

const CLIENT = { clientId: 'warn-client', clientSecret: 'warn-secret-value-0123456789' };
let emulator: Emulator;
const warnings: { code: string; message: string }[] = [];
const onWarning = (w: Error & { code?: string }): void => {
  if (w.name === 'PassportOtplessWarning') warnings.push({ code: String(w.code), message: w.message });
};
beforeAll(async () => {
  emulator = await startEmulator({ clients: [CLIENT], quiet: true });
  process.on('warning', onWarning);
});
afterAll(async () => {
  process.off('warning', onWarning);
  await emulator?.close();
});
const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all(closers.splice(0).map((close) => close()));
});

/** An app on 127.0.0.1 whose session cookie may be `secure`, and whose service may be unreachable. */
async function startApp(options: { secureCookie?: boolean; authUrl?: string } = {}): Promise<{ port: number }> {
  const app = express();
  const server = app.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const port = (server.address() as AddressInfo).port;
  const strategy = new MagicLinkStrategy(
    {
      ...CLIENT,
      authUrl: options.authUrl ?? emulator.authUrl,
      userAuthUrl: emulator.userAuthUrl,
      callbackUrl: `http://127.0.0.1:${port}/auth/callback`,
      timeoutMs: 30_000,
    },
    async (profile) => ({ id: profile.id }),
  );
  const passport = new Passport();
  passport.use(strategy);
  app.use(
    expressSession({
      secret: 'warn-session-secret',
      resave: false,
      saveUninitialized: false,
      cookie: { secure: options.secureCookie ?? false },
    }),
  );
  app.use(passport.session());
  app.use(magicLinkRoutes(strategy, { passport }));
  closers.push(async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
    await strategy.client.close();
  });
  return { port };
}

/** Waits for the warning with `code` (emitted on the next tick, or when an answer finishes). */
async function warningOf(code: string): Promise<{ code: string; message: string }> {
  for (let i = 0; i < 200; i += 1) {
    const found = warnings.find((w) => w.code === code);
    if (found) return found;
    await new Promise((resolve) => setImmediate(resolve));
  }
  throw new Error(`no ${code} warning`);
}

describe('setup warnings of the one mount', () => {
  it('names the other cookie jar when a send comes from localhost and links return to 127.0.0.1', async () => {
    const { port } = await startApp();
    // A browser at http://localhost:<port> (fetch cannot set Host: node:http can).
    const body = JSON.stringify({ email: 'jar@example.com' });
    const req = request(`http://127.0.0.1:${port}/auth/magic-link`, {
      method: 'POST',
      headers: {
        accept: 'application/json',
        'content-type': 'application/json',
        'content-length': Buffer.byteLength(body),
        origin: `http://localhost:${port}`,
        host: `localhost:${port}`,
      },
    });
    req.end(body);
    const [res] = (await once(req, 'response')) as [IncomingMessage];
    res.resume();
    expect(res.statusCode).toBe(200);
    const warning = await warningOf('OTPLESS_ORIGIN_DIFFERS');
    expect(warning.message).toContain(`http://localhost:${port}`);
    expect(warning.message).toContain(`http://127.0.0.1:${port}`);
  });

  it('tells the operator when a send answered but its secure session cookie never reached a browser over http', async () => {
    const { port } = await startApp({ secureCookie: true });
    const res = await fetch(`http://127.0.0.1:${port}/auth/magic-link`, {
      method: 'POST',
      headers: { accept: 'application/json', 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'cookie@example.com' }),
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('set-cookie')).toBeNull();
    const warning = await warningOf('OTPLESS_SESSION_COOKIE_NOT_SET');
    expect(warning.message).toMatch(/secure/);
  });

  it('says the service cannot be reached once, where the JSON client only gets its 502/503', async () => {
    // A port with nothing listening: the client fails to connect.
    const closed = express().listen(0, '127.0.0.1');
    await once(closed, 'listening');
    const deadPort = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const { port } = await startApp({ authUrl: `http://127.0.0.1:${deadPort}` });
    const res = await fetch(`http://127.0.0.1:${port}/auth/magic-link`, {
      method: 'POST',
      headers: { accept: 'application/json', 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'down@example.com' }),
    });
    expect(res.status).toBeGreaterThanOrEqual(502);
    const body = (await res.json()) as { error: { code: string; message: string } };
    expect(body.error.code).toMatch(/^SERVICE_/);
    expect(JSON.stringify(body)).not.toContain(CLIENT.clientSecret);
    const warning = await warningOf('OTPLESS_SERVICE_UNREACHABLE');
    expect(warning.message).not.toContain(CLIENT.clientSecret);
  });
});
