import type { IdentityType } from '../wire/types.js';
import type { Clock } from './clock.js';
import type { ClientRegistry } from './credentials.js';
import type { Faults } from './faults.js';
import type { ResolvedQuirks } from './quirks.js';
import type { Store } from './store.js';
import type { Waits } from './timers.js';

/** What every handler may use: one per emulator. */
export interface EmulatorContext {
  readonly store: Store;
  readonly clients: ClientRegistry;
  readonly clock: Clock;
  readonly faults: Faults;
  readonly waits: Waits;
  /** Set once the auth server listens; links are built on it. */
  authUrl: string;
  /** Undefined when quiet. */
  readonly log: ((line: string) => void) | undefined;
  readonly baseDelayMs: number;
  readonly tokenTtlMs: number;
  /** Whether the JSON outbox shows session tokens (`exposeSessionTokens`, for tests). */
  readonly exposeSessionTokens: boolean;
  /** The quirks in force; replaced whole by setQuirks and reset. */
  quirks: ResolvedQuirks;
  /** Set by `emulator.nextLogin()`, taken by the next verify-code completion. */
  nextLogin: { unverified: ReadonlySet<IdentityType> } | undefined;
}
