import { countKey, MemoryCounters } from './MemoryCounters.js';
import type { CountKey } from './MemoryCounters.js';
import type { CountsTaken, LimitCounts, SendCounts } from './counts.js';

/** Send counts in this process's memory (`MemoryCounters`), on the clock it is given. */
export class MemoryLimitCounts implements LimitCounts {
  readonly counters: MemoryCounters;
  /** The last epoch given to a reset destination; 0 is a destination never reset. */
  #epoch = 0;

  /**
   * @param digestKey the key of the counts' keyed digests
   * @param maxCounts the table's bound (`MemoryCounters`)
   */
  constructor(
    private readonly now: () => number,
    private readonly digestKey: Buffer,
    maxCounts?: number,
  ) {
    this.counters = new MemoryCounters(maxCounts);
  }

  take(send: SendCounts): Promise<CountsTaken> {
    return Promise.resolve(this.takeNow(send));
  }

  reset(destination: string, windowMs: number): Promise<void> {
    // Wrapping at 2^32 reuses an epoch only after billions of resets: long after its pairs ended.
    this.#epoch = (this.#epoch + 1) >>> 0 || 1;
    this.counters.restart(countKey(destination, this.digestKey), this.#epoch, windowMs, this.now());
    return Promise.resolve();
  }

  private takeNow(send: SendCounts): CountsTaken {
    const now = this.now();
    const { counters } = this;
    // Every count is read before any is written: a refused send counts against its client
    // alone (it was an attempt), never against a destination.
    const ipAt = send.ip && countKey(send.ip.key, this.digestKey);
    if (send.ip && ipAt) {
      const slot = counters.live(ipAt, now);
      if (counters.countAt(slot) >= send.ip.limit) {
        return { allowed: false, at: 'ip', retryAfterMs: counters.endsAt(slot) - now };
      }
    }
    const destinations: Array<{
      at: CountKey;
      pair: CountKey;
      epoch: number;
      total: number;
      limit: number;
      windowMs: number;
    }> = [];
    for (let index = 0; index < send.destinations.length; index++) {
      const d = send.destinations[index]!;
      const at = countKey(d.key, this.digestKey);
      const total = counters.live(at, now);
      if (counters.countAt(total) >= d.total) {
        return this.refused(send, ipAt, index, counters.endsAt(total) - now, now);
      }
      const epoch = counters.epochAt(total);
      const pair = countKey(d.pair, this.digestKey);
      const own = counters.live(pair, now);
      if (counters.epochAt(own) === epoch && counters.countAt(own) >= d.limit) {
        return this.refused(send, ipAt, index, counters.endsAt(own) - now, now);
      }
      destinations.push({ at, pair, epoch, total: d.total, limit: d.limit, windowMs: d.windowMs });
    }
    // At its bound the table gives up other counts for these (never a lock-out of new visitors).
    const keys = destinations.flatMap((d) => [d.at, d.pair]);
    counters.makeRoom(ipAt ? [ipAt, ...keys] : keys, now);
    if (send.ip && ipAt) counters.add(ipAt, 0, send.ip.windowMs, now, send.ip.limit);
    for (const d of destinations) {
      counters.add(d.at, d.epoch, d.windowMs, now, d.total);
      counters.add(d.pair, d.epoch, d.windowMs, now, d.limit);
    }
    let refunded = false;
    const refund = () => {
      if (refunded) return Promise.resolve();
      refunded = true;
      const later = this.now();
      // The client's count stays: it counts attempts, and this was one.
      for (const d of destinations) {
        counters.subtract(d.at, later);
        counters.subtract(d.pair, later);
      }
      return Promise.resolve();
    };
    return { allowed: true, refund };
  }

  /** A send refused at destination `at`: counted against its client, as every attempt is. */
  private refused(
    send: SendCounts,
    ipAt: CountKey | undefined | '',
    at: number,
    retryAfterMs: number,
    now: number,
  ): CountsTaken {
    if (send.ip && ipAt) {
      this.counters.makeRoom([ipAt], now);
      this.counters.add(ipAt, 0, send.ip.windowMs, now, send.ip.limit);
    }
    return { allowed: false, at, retryAfterMs };
  }
}
