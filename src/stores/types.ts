/**
 * Where the package keeps short-lived shared state: cross-device flows and used tokens.
 * Every instance of an app must see the same store, so a phone's approval on one instance
 * is seen by the laptop polling another. Values are opaque strings; keys come prefixed.
 */
export interface FlowStore {
  /** Stores `value` under `key` for `ttlMs` unless the key exists; true when it was stored. */
  create(key: string, value: string, ttlMs: number): Promise<boolean>;
  /** The value, or `undefined` when absent or expired. */
  get(key: string): Promise<string | undefined>;
  /**
   * Replaces the value only if it is still `expected`, keeping its expiry; true when replaced.
   * Two racing requests cannot both move a flow on from the same state.
   */
  swap(key: string, expected: string, next: string): Promise<boolean>;
  /** Removes and returns the value in one step, so it can be taken once only. */
  take(key: string): Promise<string | undefined>;
}
