import { deriveKey, labelledDigest } from '../crypto.js';

/**
 * The keys that authenticate what the package keeps in a session (the login record, the
 * pending sends), derived from the strategy's store secret: `storeSecret`, or the client
 * secret. A writer of the session store holds neither, so it can change a session but cannot
 * make one the package believes.
 *
 * The guards run without the strategy (`requireLowRisk()` takes no strategy), so every
 * `StoreSecrets` registers its key here when the strategy is built, and a record names its key
 * by a short id. Any registered key is a secret of this process; a record whose key is not
 * registered (another process's random secret, a forged id) reads as no record.
 */
export interface RecordKey {
  /** A short public name of the key, stored beside what it authenticates. */
  readonly id: string;
  readonly key: Buffer;
}

/** The keys of this process, newest last. A closure on `globalThis`: two copies of the package share it, and no inspection of the request or the registry object shows a key. */
interface Registry {
  add(key: RecordKey): void;
  byId(id: string): RecordKey | undefined;
  latest(): RecordKey | undefined;
}

/** Strategies a process builds are few; tests build hundreds. Oldest dropped past this. */
const MAX_KEYS = 4_096;

function newRegistry(): Registry {
  const keys = new Map<string, RecordKey>();
  let newest: RecordKey | undefined;
  return Object.freeze({
    add(key: RecordKey) {
      keys.delete(key.id);
      keys.set(key.id, key);
      newest = key;
      if (keys.size > MAX_KEYS) keys.delete(keys.keys().next().value as string);
    },
    byId: (id: string) => keys.get(id),
    latest: () => newest,
  });
}

// Stryker disable next-line StringLiteral: equivalent; the key is shared by two package copies
const SLOT = Symbol.for('passport-otpless.recordKeys');
const registry: Registry = ((globalThis as Record<symbol, unknown>)[SLOT] as Registry | undefined) ?? newRegistry();
Object.defineProperty(globalThis, SLOT, { value: registry, configurable: true, enumerable: false });

/** Derives the session-record key of a store secret and registers it; the same secret gives the same key and id. */
export function registerRecordKey(secret: string | Buffer): RecordKey {
  const key = deriveKey(secret, 'session records v1');
  const recordKey: RecordKey = Object.freeze({ id: labelledDigest(key, 'key id', '').slice(0, 11), key });
  registry.add(recordKey);
  return recordKey;
}

/** The key a record names, when this process has it. */
export function recordKeyById(id: unknown): RecordKey | undefined {
  return typeof id === 'string' ? registry.byId(id) : undefined;
}

/**
 * The key of the strategy built last: what a record is written under when its strategy did
 * not say (every registered key is as good for the guards, which look a key up by its id).
 */
export function latestRecordKey(): RecordKey | undefined {
  return registry.latest();
}
