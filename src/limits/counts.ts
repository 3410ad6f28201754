/**
 * What one send counts, as the stores of send limits take it: the client's key, and for each
 * destination its key and the key of the destination from this client (its pair). Keys are
 * as `keys.ts` makes them; a store hashes them.
 */
export interface SendCounts {
  ip?: { key: string; limit: number; windowMs: number };
  /** Each destination once; `total` for its count from every client, `limit` for its pair. */
  destinations: Array<{ key: string; pair: string; total: number; limit: number; windowMs: number }>;
}

/**
 * A store's answer: every count taken (with the refund), or the one that is spent. The refund
 * gives back the destinations' counts only: the client's count is of attempts, and a send the
 * service refused was one. A send refused at a destination counts against its client too.
 */
export type CountsTaken =
  { allowed: true; refund(): Promise<void> } | { allowed: false; at: 'ip' | number; retryAfterMs: number };

/**
 * A store of send counts: fixed windows (from the first send), all or nothing per send.
 * A destination's reset ends its count and every pair's at once: the destination's count
 * carries an epoch, each pair the epoch it was counted in, and a pair of another epoch is over.
 */
export interface LimitCounts {
  take(send: SendCounts): Promise<CountsTaken>;
  /** Sets the destination's count to zero in a new window, with an epoch of its own. */
  reset(destination: string, windowMs: number): Promise<void>;
}
