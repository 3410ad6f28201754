import type { EmulatorClient, EmulatorOptions } from './types.js';

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

/** Fills in defaults and throws a TypeError naming the first bad option. */
export function resolveOptions(options: EmulatorOptions): EmulatorConfig {
  const host = options.host ?? '127.0.0.1';
  if (typeof host !== 'string' || host === '') throw new TypeError('startEmulator: host must be a non-empty string');
  if (options.log !== undefined && typeof options.log !== 'function')
    throw new TypeError('startEmulator: log must be a function');
  return {
    clients: checkClients(options.clients ?? [EMULATOR_DEFAULT_CLIENT]),
    host,
    authPort: checkPort('authPort', options.authPort ?? 0),
    userAuthPort: checkPort('userAuthPort', options.userAuthPort ?? 0),
    log: options.quiet ? undefined : (options.log ?? ((line: string) => console.log(line))),
    baseDelayMs: checkMs('baseDelayMs', options.baseDelayMs ?? 0, 0),
    tokenTtlMs: checkMs('tokenTtlMs', options.tokenTtlMs ?? 15 * 60 * 1000, 1),
    sessionIdleMs: checkMs('sessionIdleMs', options.sessionIdleMs ?? 30 * 60 * 1000, 1),
    maxOutbox: checkCount('maxOutbox', options.maxOutbox ?? 1000, 1),
    maxLogins: checkCount('maxLogins', options.maxLogins ?? 10_000, 1),
  };
}
