// Helpers for the otpless-check tests: an emulator with a client of its own, and a person who
// opens the link (plain fetch over real sockets, never the project's client).
import { randomBytes } from 'node:crypto';
import { startEmulator, type Emulator, type EmulatorQuirks, type OutboxEntry } from '../../src/emulator/index.js';
import type { CheckOptions } from '../../src/check/options.js';

/** A secret long and random enough that finding it in any output can only mean a leak. */
export const CLIENT = { clientId: 'check-client', clientSecret: `check-secret-${randomBytes(12).toString('hex')}` };

export function startCheckEmulator(quirks: EmulatorQuirks = {}): Promise<Emulator> {
  return startEmulator({ clients: [CLIENT], quiet: true, quirks });
}

/** Options of runCheck against `emulator`, for the test client. */
export function optionsFor(emulator: Emulator, extra: Partial<CheckOptions> = {}): CheckOptions {
  return {
    ...CLIENT,
    email: 'ada@example.com',
    authUrl: emulator.authUrl,
    userAuthUrl: emulator.userAuthUrl,
    clickTimeoutMs: 10_000,
    ...extra,
  };
}

/** The newest outbox entry of a type. */
export function newest(emulator: Emulator, type: OutboxEntry['type'] = 'EMAIL'): OutboxEntry {
  const entry = emulator
    .outbox()
    .filter((candidate) => candidate.type === type)
    .at(-1);
  if (!entry) throw new Error(`no ${type} entry in the outbox`);
  return entry;
}

/** Opens the link like a browser, without following the redirect: the Location it answers. */
export async function locationOf(link: string): Promise<string> {
  const response = await fetch(link, { redirect: 'manual' });
  const location = response.headers.get('location');
  if (response.status !== 302 || !location) throw new Error(`the link answered ${response.status}`);
  return location;
}

/** What one run of a "person" saw: the Location the link redirected to (it holds the code). */
export interface Clicker {
  /** For io.landing: opens the newest link and follows it to the check's listener. */
  followToListener(): Promise<undefined>;
  /** For io.landing: opens the newest link and hands back where it landed (a paste). */
  handBack(): Promise<string>;
  /** The Location of the last click. */
  readonly location: string | undefined;
}

export function clicker(emulator: Emulator, type: OutboxEntry['type'] = 'EMAIL'): Clicker {
  let location: string | undefined;
  return {
    async followToListener() {
      location = await locationOf(newest(emulator, type).link);
      const landed = await fetch(location);
      if (landed.status !== 200) throw new Error(`the listener answered ${landed.status}`);
      await landed.text();
      return undefined;
    },
    async handBack() {
      location = await locationOf(newest(emulator, type).link);
      return location;
    },
    get location() {
      return location;
    },
  };
}

/** The code in a Location, to prove it appears in no output. */
export function codeIn(location: string | undefined): string {
  const code = location ? new URL(location).searchParams.get('code') : null;
  if (!code) throw new Error('no code in the Location');
  return code;
}
