import { createHash } from 'node:crypto';
import type { FlowStore } from '../stores/types.js';
import { isCredential } from './credentials.js';
import type { PasskeyCredential, PasskeyCredentialStore } from './credentials.js';

/** How long a passkey is kept in a `FlowStore`: ten years, renewed by nothing (the store needs a TTL). */
const KEEP_MS = 10 * 365 * 24 * 3600 * 1000;
/** Tries of a change to a user's list that raced another one. */
const RACE_TRIES = 8;

/**
 * Passkeys in the package's `store` (the strategy's `store` option: memory by default, Redis for
 * several instances), the default of `passkeys.credentials`. A credential is one entry under
 * `passkey:cred:<id>`; a user's list of ids one entry under `passkey:user:<digest of the user id>`, changed
 * by compare-and-swap so two registrations at once both land.
 *
 * The memory store is for one process in development: its passkeys go with the process. With
 * Redis, back the keys `passkey:*` up (see docs/production.md), or give your own database.
 *
 * @example
 * magicLinkRoutes(strategy, { passport, passkeys: { credentials: new StoreCredentials(redisFlowStore) } });
 */
export class StoreCredentials implements PasskeyCredentialStore {
  readonly #store: FlowStore;

  constructor(store: FlowStore) {
    this.#store = store;
  }

  async find(id: string): Promise<PasskeyCredential | undefined> {
    return parse(await this.#store.get(credentialKey(id)));
  }

  async listByUser(userId: string): Promise<PasskeyCredential[]> {
    const ids = readIds(await this.#store.get(userKey(userId)));
    const found = await Promise.all(ids.map((id) => this.find(id)));
    return found.filter((c): c is PasskeyCredential => c !== undefined && c.userId === userId);
  }

  async save(credential: PasskeyCredential): Promise<boolean> {
    if (!(await this.#store.create(credentialKey(credential.id), JSON.stringify(credential), KEEP_MS))) return false;
    await this.#changeIds(credential.userId, (ids) => [...ids.filter((id) => id !== credential.id), credential.id]);
    return true;
  }

  async updateCounter(id: string, counter: number, usedAt: number): Promise<void> {
    const key = credentialKey(id);
    for (let i = 0; i < RACE_TRIES; i++) {
      const text = await this.#store.get(key);
      const credential = parse(text);
      if (!credential || text === undefined) return;
      const next = JSON.stringify({ ...credential, counter, lastUsedAt: usedAt });
      if (await this.#store.swap(key, text, next)) return;
    }
  }

  async remove(id: string): Promise<boolean> {
    const credential = parse(await this.#store.take(credentialKey(id)));
    if (!credential) return false;
    await this.#changeIds(credential.userId, (ids) => ids.filter((one) => one !== id));
    return true;
  }

  /** Changes a user's list of ids, again when another change won the race. */
  async #changeIds(userId: string, change: (ids: string[]) => string[]): Promise<void> {
    const key = userKey(userId);
    for (let i = 0; i < RACE_TRIES; i++) {
      const text = await this.#store.get(key);
      const next = JSON.stringify(change(readIds(text)));
      if (text === undefined ? await this.#store.create(key, next, KEEP_MS) : await this.#store.swap(key, text, next))
        return;
    }
    throw new Error('passport-otpless: the list of passkeys of a user kept changing; try again');
  }
}

function credentialKey(id: string): string {
  return `passkey:cred:${id}`;
}

function userKey(userId: string): string {
  // A digest: the key names no address (the store's keys show up in its tools and logs).
  return `passkey:user:${createHash('sha256').update(userId).digest('base64url')}`;
}

function parse(text: string | undefined): PasskeyCredential | undefined {
  if (text === undefined) return undefined;
  try {
    const value: unknown = JSON.parse(text);
    return isCredential(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

function readIds(text: string | undefined): string[] {
  if (text === undefined) return [];
  try {
    const value: unknown = JSON.parse(text);
    return Array.isArray(value) ? value.filter((id): id is string => typeof id === 'string') : [];
  } catch {
    return [];
  }
}
