import { CLOCK_MODES, type ClockMode } from './clock.js';
import { resolveQuirks, type ResolvedQuirks } from './quirks.js';
import type { EmulatorClient, EmulatorOptions } from './types.js';
import { refuseUnknownOptions } from '../options.js';

/**
 * The client the emulator accepts when no `clients` option is given.
 *
 * @example
 * const emulator = await startEmulator();
 * const { clientId, clientSecret } = EMULATOR_DEFAULT_CLIENT;
 */
export const EMULATOR_DEFAULT_CLIENT: Readonly<EmulatorClient> = Object.freeze({
  clientId: 'emulator-client-id',
  clientSecret: 'emulator-client-secret',
});

/**
 * Send limits for an app in development against the emulator (the strategy's `limits`): 30
 * sends per destination and 100 per client IP, per minute, so trying the sign-in again and
 * again never locks its developer out for the real limits' 15 minutes, while a refusal (and its
 * "try again in 1 minute") can still be seen. Never in production: keep the defaults there.
 *
 * @example
 * new MagicLinkStrategy({ ...EMULATOR_DEFAULT_CLIENT, authUrl: emulator.authUrl, userAuthUrl: emulator.userAuthUrl,
 *   callbackUrl, limits: EMULATOR_SEND_LIMITS }, verify);
 */
export const EMULATOR_SEND_LIMITS = Object.freeze({
  perDestination: Object.freeze({ limit: 30, windowSeconds: 60 }),
  perIp: Object.freeze({ limit: 100, windowSeconds: 60 }),
});

/**
 * The service's WhatsApp business number, as the emulator's: `destinationUri` of a WhatsApp
 * send is `https://wa.me/<this>` whoever the link goes to (the service's example answer shows
 * its own business number there, not the user's). 91 followed by ten zeros is no Indian
 * mobile number (those start with 6-9), so the link can never reach a real person.
 */
export const EMULATOR_WHATSAPP_NUMBER = '910000000000';

/** Options with every default filled in and checked. */
export interface EmulatorConfig {
  clients: readonly EmulatorClient[];
  host: string;
  authPort: number;
  userAuthPort: number;
  log: ((line: string) => void) | undefined;
  baseDelayMs: number;
  tokenTtlMs: number;
  sessionIdleMs: number;
  maxOutbox: number;
  maxLogins: number;
  clock: ClockMode;
  quirks: ResolvedQuirks;
  /** Extra Host names (lower case, without port). */
  allowedHosts: readonly string[];
  exposeSessionTokens: boolean;
}

function checkPort(name: string, value: number): number {
  if (!Number.isInteger(value) || value < 0 || value > 65535) {
    throw new TypeError(`startEmulator: ${name} must be an integer port from 0 to 65535, got ${String(value)}`);
  }
  return value;
}

function checkCount(name: string, value: number, min: number): number {
  if (!(Number.isInteger(value) && value >= min)) {
    throw new TypeError(`startEmulator: ${name} must be an integer >= ${min}, got ${String(value)}`);
  }
  return value;
}

function checkMs(name: string, value: number, min: number): number {
  if (!(Number.isFinite(value) && value >= min))
    throw new TypeError(`startEmulator: ${name} must be a number of ms >= ${min}, got ${String(value)}`);
  return value;
}

function checkClients(clients: readonly EmulatorClient[]): readonly EmulatorClient[] {
  if (!Array.isArray(clients) || clients.length === 0)
    throw new TypeError('startEmulator: clients must be a non-empty array of { clientId, clientSecret }');
  const ids = new Set<string>();
  for (const client of clients) {
    if (
      typeof client?.clientId !== 'string' ||
      client.clientId === '' ||
      typeof client.clientSecret !== 'string' ||
      client.clientSecret === ''
    ) {
      throw new TypeError('startEmulator: every client needs a non-empty clientId and clientSecret');
    }
    if (ids.has(client.clientId)) throw new TypeError(`startEmulator: clientId "${client.clientId}" is listed twice`);
    ids.add(client.clientId);
  }
  return clients.map(({ clientId, clientSecret }) => Object.freeze({ clientId, clientSecret }));
}

function checkAllowedHosts(hosts: readonly string[] | undefined): readonly string[] {
  if (hosts === undefined) return [];
  if (!Array.isArray(hosts) || hosts.some((host) => typeof host !== 'string' || host.trim() === '')) {
    throw new TypeError('startEmulator: allowedHosts must be an array of non-empty host names');
  }
  return hosts.map((host) => host.trim().toLowerCase());
}

/** Where link lines go: nowhere unless `log` is given or `quiet: false` asks for the console. */
function logSink(options: EmulatorOptions): ((line: string) => void) | undefined {
  if (options.quiet === true) return undefined;
  if (options.log !== undefined) return options.log;
  return options.quiet === false ? (line: string) => console.log(line) : undefined;
}

/**
 * The emulator is a development tool: it accepts fixed, published credentials and completes a
 * login for whoever opens a link. Throws unless NODE_ENV is other than production or the caller
 * says it knows.
 */
export function refuseProduction(allowed: boolean | undefined, how: string): void {
  if (isProductionLike(process.env.NODE_ENV) && allowed !== true) {
    throw new Error(
      `the OTPless emulator refuses to start with NODE_ENV=production: it accepts fixed credentials and logs in whoever opens a link. ${how}`,
    );
  }
}

/**
 * `production`, `Production`, `production ` (a stray space from a shell or an env file), `prod`,
 * `PROD-eu`: anything that starts with `prod`, trimmed, in any case.
 */
export function isProductionLike(nodeEnv: string | undefined): boolean {
  return /^prod/i.test((nodeEnv ?? '').trim());
}

/** Fills in defaults and throws a TypeError naming the first bad option. */
/** Every option of startEmulator(), by name: a key not here is a typo. */
const OPTION_NAMES = Object.keys({
  clients: true,
  host: true,
  authPort: true,
  userAuthPort: true,
  quiet: true,
  log: true,
  baseDelayMs: true,
  tokenTtlMs: true,
  sessionIdleMs: true,
  maxOutbox: true,
  maxLogins: true,
  clock: true,
  quirks: true,
  allowInProduction: true,
  allowedHosts: true,
  exposeSessionTokens: true,
} satisfies Record<keyof EmulatorOptions, true>);

export function resolveOptions(options: EmulatorOptions): EmulatorConfig {
  if (typeof options !== 'object' || options === null || Array.isArray(options)) {
    throw new TypeError('startEmulator: options must be an object');
  }
  refuseUnknownOptions('startEmulator', options, OPTION_NAMES);
  const host = options.host ?? '127.0.0.1';
  if (typeof host !== 'string' || host === '') throw new TypeError('startEmulator: host must be a non-empty string');
  if (options.log !== undefined && typeof options.log !== 'function')
    throw new TypeError('startEmulator: log must be a function');
  if (options.allowInProduction !== undefined && typeof options.allowInProduction !== 'boolean')
    throw new TypeError('startEmulator: allowInProduction must be true or false');
  if (options.exposeSessionTokens !== undefined && typeof options.exposeSessionTokens !== 'boolean')
    throw new TypeError('startEmulator: exposeSessionTokens must be true or false');
  const clock = options.clock ?? 'real';
  if (!CLOCK_MODES.includes(clock))
    throw new TypeError(`startEmulator: clock must be one of ${CLOCK_MODES.join(', ')}, got ${String(clock)}`);
  refuseProduction(
    options.allowInProduction,
    'Pass allowInProduction: true to startEmulator if this really is what you want.',
  );
  return {
    clients: checkClients(options.clients ?? [EMULATOR_DEFAULT_CLIENT]),
    host,
    authPort: checkPort('authPort', options.authPort ?? 0),
    userAuthPort: checkPort('userAuthPort', options.userAuthPort ?? 0),
    log: logSink(options),
    baseDelayMs: checkMs('baseDelayMs', options.baseDelayMs ?? 0, 0),
    tokenTtlMs: checkMs('tokenTtlMs', options.tokenTtlMs ?? 15 * 60 * 1000, 1),
    sessionIdleMs: checkMs('sessionIdleMs', options.sessionIdleMs ?? 30 * 60 * 1000, 1),
    maxOutbox: checkCount('maxOutbox', options.maxOutbox ?? 1000, 1),
    maxLogins: checkCount('maxLogins', options.maxLogins ?? 10_000, 1),
    clock,
    quirks: resolveQuirks(options.quirks, 'startEmulator'),
    allowedHosts: checkAllowedHosts(options.allowedHosts),
    exposeSessionTokens: options.exposeSessionTokens ?? false,
  };
}
