import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Clock } from './clock.js';
import { resolveOptions } from './config.js';
import type { EmulatorContext } from './context.js';
import { ClientRegistry } from './credentials.js';
import { Faults } from './faults.js';
import { issueToken } from './issueToken.js';
import { createRouter } from './router.js';
import { Store } from './store.js';
import { Waits } from './timers.js';
import type { Emulator, EmulatorOptions, OutboxEntry } from './types.js';

function listen(server: Server, port: number, host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve((server.address() as AddressInfo).port);
    });
  });
}

function closeServer(server: Server): Promise<void> {
  return new Promise((resolve) => {
    if (!server.listening) return resolve();
    server.close(() => resolve());
    // Idle keep-alive sockets would hold close() open for seconds: end them now.
    server.closeAllConnections();
  });
}

function baseUrl(host: string, port: number): string {
  return `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
}

/**
 * Starts the local OTPless emulator: two real HTTP listeners (auth and user-auth hosts) serving
 * the six service endpoints, a dev inbox, and test controls (outbox, faults, clock).
 *
 * @example
 * import { startEmulator, EMULATOR_DEFAULT_CLIENT } from 'passport-otpless/emulator';
 *
 * const emulator = await startEmulator({ quiet: true });
 * // point the client at emulator.authUrl and emulator.userAuthUrl, send a magic link, then:
 * const [entry] = emulator.outbox();
 * const click = await fetch(entry.link, { redirect: 'manual' }); // 302 to redirect_uri?code=...
 * const token = emulator.issueToken({ email: 'jane@example.com', risk: 'vpn' });
 * await emulator.close();
 */
export async function startEmulator(options: EmulatorOptions = {}): Promise<Emulator> {
  const config = resolveOptions(options);
  const clients = new ClientRegistry(config.clients);
  const ctx: EmulatorContext = {
    store: new Store({ maxLogins: config.maxLogins, maxOutbox: config.maxOutbox, sessionIdleMs: config.sessionIdleMs }),
    clients,
    clock: new Clock(),
    faults: new Faults(),
    waits: new Waits(),
    authUrl: '',
    log: config.log,
    baseDelayMs: config.baseDelayMs,
    tokenTtlMs: config.tokenTtlMs,
  };
  const authServer = createServer(createRouter(ctx, 'auth'));
  const userAuthServer = createServer(createRouter(ctx, 'userAuth'));
  let authPort: number;
  let userAuthPort: number;
  try {
    authPort = await listen(authServer, config.authPort, config.host);
    userAuthPort = await listen(userAuthServer, config.userAuthPort, config.host);
  } catch (error) {
    await Promise.all([closeServer(authServer), closeServer(userAuthServer)]);
    throw error;
  }
  ctx.authUrl = baseUrl(config.host, authPort);
  const userAuthUrl = baseUrl(config.host, userAuthPort);
  let closing: Promise<void> | undefined;

  return {
    authUrl: ctx.authUrl,
    userAuthUrl,
    clients: clients.clients,
    outbox: (): OutboxEntry[] => ctx.store.outbox().map(({ entry }) => ({ ...entry })),
    fault: (spec) => ctx.faults.add(spec),
    clearFaults: () => ctx.faults.clear(),
    advanceTime: (ms) => ctx.clock.advance(ms),
    now: () => ctx.clock.now(),
    issueToken: (issueOptions) => issueToken(ctx, issueOptions),
    reset: () => {
      ctx.store.clear();
      ctx.faults.clear();
    },
    close: () => {
      closing ??= (async () => {
        ctx.waits.cancelAll();
        await Promise.all([closeServer(authServer), closeServer(userAuthServer)]);
      })();
      return closing;
    },
  };
}
