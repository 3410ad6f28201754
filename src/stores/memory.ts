import { intFrom } from '../options/checks.js';
import { checkOptionsArgument } from '../options/table.js';
import type { OptionTable } from '../options/table.js';
import { MemoryMarks } from './marks.js';
import type { FlowStore } from './types.js';

/** Options of `MemoryFlowStore`. */
export interface MemoryFlowStoreOptions {
  /** Most flows kept; when full of live ones, the oldest is dropped. Default 100 000. */
  maxEntries?: number;
  /**
   * Most used-token marks kept (keys under `token:`), a budget of their own: flows never evict
   * a mark, and when full of live marks a login is refused (an error) rather than a mark
   * dropped, which would let its token log in again. Kept compact (about 16 bytes a mark) and
   * swept by generation: a mark's value is not kept (`get` answers `'1'`), and it may live up
   * to 30 s longer than asked. Default 100 000.
   */
  maxMarks?: number;
}

interface Entry {
  value: string;
  expiresAt: number;
}

const OWNER = 'MemoryFlowStore';

/** Keys of used-token marks (src/strategy/tokens.ts), and what `get` answers for one. */
const MARK_PREFIX = 'token:';
const MARK_VALUE = '1';

function isMark(key: string): boolean {
  return key.startsWith(MARK_PREFIX);
}

/** Expired entries looked at per create: more than one, so the sweep outpaces the inserts. */
const SWEEP_PER_CREATE = 4;

/**
 * One budget of entries. A Map keeps insertion order, and entries of one kind share a lifetime,
 * so the front holds the oldest expiries: each create sweeps a few expired ones from there
 * (O(1) amortized), and a full budget drops its oldest live entry.
 */
class Budget {
  readonly entries = new Map<string, Entry>();

  constructor(readonly max: number) {}

  /** Drops up to `budget` expired entries from the front; stops at the first live one. */
  sweep(now: number, budget: number): void {
    for (const [key, entry] of this.entries) {
      if (budget-- <= 0 || entry.expiresAt > now) return;
      this.entries.delete(key);
    }
  }

  makeRoom(now: number): void {
    this.sweep(now, SWEEP_PER_CREATE);
    // Still full: the sweep freed nothing, so the front entry is live (a longer sweep would stop
    // there too), and it goes.
    if (this.entries.size < this.max) return;
    const oldest = this.entries.keys().next();
    if (!oldest.done) this.entries.delete(oldest.value);
  }
}

/** Every option of `MemoryFlowStore`: its check, default and one-line doc. */
export const MEMORY_FLOW_STORE_OPTIONS = {
  maxEntries: {
    check: intFrom(1, 10_000_000),
    default: 100_000,
    doc: 'most flows kept; when full of live ones, the oldest is dropped',
  },
  maxMarks: {
    check: intFrom(1, 10_000_000),
    default: 100_000,
    doc: 'most used-token marks kept, a budget of their own: when full of live marks a login is refused',
  },
} satisfies OptionTable<MemoryFlowStoreOptions>;

/**
 * A `FlowStore` in this process's memory: the default, right for one instance. Several
 * instances behind a load balancer need a shared store (the strategy's `store` option), or a
 * phone's approval lands where the laptop never looks.
 *
 * Bounded: flows and used-token marks each have their own budget, and expired entries are
 * swept as it goes, so the heap follows the live logins, not the total.
 *
 * @example
 * new MagicLinkStrategy({ ..., store: new MemoryFlowStore({ maxEntries: 10_000 }) }, verify);
 */
export class MemoryFlowStore implements FlowStore {
  readonly #flows: Budget;
  readonly #marks: MemoryMarks;
  readonly #now: () => number;

  constructor(options: MemoryFlowStoreOptions = {}, now: () => number = Date.now) {
    const { maxEntries, maxMarks } = checkOptionsArgument(MEMORY_FLOW_STORE_OPTIONS, OWNER, options, 'an object');
    this.#flows = new Budget(maxEntries);
    this.#marks = new MemoryMarks(maxMarks);
    this.#now = now;
  }

  /** Entries held now (flows and marks), expired ones included until swept. */
  get size(): number {
    return this.#flows.entries.size + this.#marks.size;
  }

  async create(key: string, value: string, ttlMs: number): Promise<boolean> {
    const now = this.#now();
    if (isMark(key)) return this.#marks.add(key, now + ttlMs, now);
    const budget = this.#flows;
    const seen = budget.entries.get(key);
    if (seen && seen.expiresAt > now) return false;
    // An expired flow of this key goes, so the new one is the newest (the last to be dropped).
    budget.entries.delete(key);
    budget.makeRoom(now);
    budget.entries.set(key, { value, expiresAt: now + ttlMs });
    return true;
  }

  async get(key: string): Promise<string | undefined> {
    if (isMark(key)) return this.#marks.has(key, this.#now()) ? MARK_VALUE : undefined;
    return this.#live(key)?.value;
  }

  async swap(key: string, expected: string, next: string): Promise<boolean> {
    // A mark is never replaced (it only is, or is not): marks are not among the flows read here.
    const entry = this.#live(key);
    if (!entry || entry.value !== expected) return false;
    entry.value = next;
    return true;
  }

  async take(key: string): Promise<string | undefined> {
    if (isMark(key)) return this.#marks.remove(key, this.#now()) ? MARK_VALUE : undefined;
    const entry = this.#live(key);
    this.#flows.entries.delete(key);
    return entry?.value;
  }

  #live(key: string): Entry | undefined {
    const entries = this.#flows.entries;
    const entry = entries.get(key);
    if (!entry) return undefined;
    if (entry.expiresAt > this.#now()) return entry;
    entries.delete(key);
    return undefined;
  }
}
