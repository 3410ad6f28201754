import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Clock } from './clock.js';
import { resolveOptions } from './config.js';
import type { EmulatorContext } from './context.js';
import { ClientRegistry } from './credentials.js';
import { Faults } from './faults.js';
import { allowedHostNames, HostCheck, isLoopbackHost } from './hosts.js';
import { issueToken } from './issueToken.js';
import { identityTypeSet } from './logins.js';
import { activeQuirks, resolveQuirks } from './quirks.js';
import { createRouter } from './router.js';
import { Store } from './store.js';
import { Waits } from './timers.js';
import type { Emulator, EmulatorOptions, OutboxEntry } from './types.js';

// Hosts already warned about in this process: one warning each, however many emulators start.
const warnedHosts = new Set<string>();

/** Listening beyond loopback exposes fixed credentials and one-click logins to the network. */
function warnIfExposed(host: string, log: ((line: string) => void) | undefined): void {
  if (isLoopbackHost(host) || warnedHosts.has(host)) return;
  warnedHosts.add(host);
  const text = `the OTPless emulator listens on ${host}, beyond this machine: anyone who can reach it can use its credentials and open its links. Bind 127.0.0.1 unless you need otherwise.`;
  process.emitWarning(text, { code: 'OTPLESS_EMULATOR_EXPOSED' });
  log?.(`[otpless-emulator] warning: ${text}`);
}

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
 * const emulator = await startEmulator(); // quiet unless given `log`
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
    clock: new Clock(config.clock),
    faults: new Faults(),
    waits: new Waits(),
    authUrl: '',
    log: config.log,
    baseDelayMs: config.baseDelayMs,
    tokenTtlMs: config.tokenTtlMs,
    exposeSessionTokens: config.exposeSessionTokens,
    quirks: config.quirks,
    nextLogin: undefined,
  };
  const names = allowedHostNames(config.host, config.allowedHosts);
  // A fixed port is known now; port 0 becomes known once the server listens (setPort below).
  const authHosts = new HostCheck(names, config.authPort);
  const userAuthHosts = new HostCheck(names, config.userAuthPort);
  const authServer = createServer(createRouter(ctx, 'auth', authHosts));
  const userAuthServer = createServer(createRouter(ctx, 'userAuth', userAuthHosts));
  let authPort: number;
  let userAuthPort: number;
  try {
    authPort = await listen(authServer, config.authPort, config.host);
    userAuthPort = await listen(userAuthServer, config.userAuthPort, config.host);
  } catch (error) {
    await Promise.all([closeServer(authServer), closeServer(userAuthServer)]);
    throw error;
  }
  authHosts.setPort(authPort);
  userAuthHosts.setPort(userAuthPort);
  warnIfExposed(config.host, config.log);
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
    nextLogin: (next) => {
      if (typeof next !== 'object' || next === null)
        throw new TypeError('nextLogin(options): options must be an object');
      ctx.nextLogin = { unverified: identityTypeSet(next.unverified, 'nextLogin') };
    },
    setQuirks: (quirks) => {
      ctx.quirks = resolveQuirks(quirks, 'setQuirks');
    },
    quirks: () => activeQuirks(ctx.quirks),
    reset: () => {
      ctx.store.clear();
      ctx.faults.clear();
      ctx.nextLogin = undefined;
      ctx.quirks = config.quirks;
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
