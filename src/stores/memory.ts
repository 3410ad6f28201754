import { intOption, optionsObject, refuseUnknownOptions } from '../options.js';
import type { FlowStore } from './types.js';

/** Options of `MemoryFlowStore`. */
export interface MemoryFlowStoreOptions {
  /** Most entries kept; when full, expired ones are swept, then the oldest dropped. Default 100 000. */
  maxEntries?: number;
}

interface Entry {
  value: string;
  expiresAt: number;
}

const OWNER = 'MemoryFlowStore';

/**
 * A `FlowStore` in this process's memory: the default, right for one instance. Several
 * instances behind a load balancer need a shared store (`RedisFlowStore`), or a phone's
 * approval lands where the laptop never looks.
 *
 * Bounded: never more than `maxEntries`, expired entries swept as it fills.
 *
 * @example
 * new MagicLinkStrategy({ ..., flowStore: new MemoryFlowStore({ maxEntries: 10_000 }) }, verify);
 */
export class MemoryFlowStore implements FlowStore {
  readonly #entries = new Map<string, Entry>();
  readonly #maxEntries: number;
  readonly #now: () => number;

  constructor(options: MemoryFlowStoreOptions = {}, now: () => number = Date.now) {
    optionsObject(OWNER, options, 'an object');
    refuseUnknownOptions(OWNER, options, ['maxEntries']);
    this.#maxEntries = intOption(OWNER, options, 'maxEntries', 1, 10_000_000) ?? 100_000;
    this.#now = now;
  }

  /** Entries held now, expired ones included until swept. */
  get size(): number {
    return this.#entries.size;
  }

  async create(key: string, value: string, ttlMs: number): Promise<boolean> {
    const now = this.#now();
    const seen = this.#entries.get(key);
    if (seen && seen.expiresAt > now) return false;
    if (seen) this.#entries.delete(key);
    if (this.#entries.size >= this.#maxEntries) this.#makeRoom(now);
    this.#entries.set(key, { value, expiresAt: now + ttlMs });
    return true;
  }

  async get(key: string): Promise<string | undefined> {
    return this.#live(key)?.value;
  }

  async swap(key: string, expected: string, next: string): Promise<boolean> {
    const entry = this.#live(key);
    if (!entry || entry.value !== expected) return false;
    entry.value = next;
    return true;
  }

  async take(key: string): Promise<string | undefined> {
    const entry = this.#live(key);
    this.#entries.delete(key);
    return entry?.value;
  }

  #live(key: string): Entry | undefined {
    const entry = this.#entries.get(key);
    if (!entry) return undefined;
    if (entry.expiresAt > this.#now()) return entry;
    this.#entries.delete(key);
    return undefined;
  }

  /** Sweeps expired entries; if none were, drops the oldest (a Map keeps insertion order). */
  #makeRoom(now: number): void {
    for (const [key, entry] of this.#entries) {
      if (entry.expiresAt <= now) this.#entries.delete(key);
    }
    if (this.#entries.size < this.#maxEntries) return;
    const oldest = this.#entries.keys().next();
    if (!oldest.done) this.#entries.delete(oldest.value);
  }
}
