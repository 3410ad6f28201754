import { countKey, MemoryCounters } from './MemoryCounters.js';
import type { CountKey } from './MemoryCounters.js';
import type { CountsTaken, LimitCounts, SendCounts } from './counts.js';

/** Send counts in this process's memory (`MemoryCounters`), on the clock it is given. */
export class MemoryLimitCounts implements LimitCounts {
  readonly counters = new MemoryCounters();
  /** The last epoch given to a reset destination; 0 is a destination never reset. */
  #epoch = 0;

  constructor(private readonly now: () => number) {}

  take(send: SendCounts): Promise<CountsTaken> {
    return Promise.resolve(this.takeNow(send));
  }

  reset(destination: string, windowMs: number): Promise<void> {
    // Wrapping at 2^32 reuses an epoch only after billions of resets: long after its pairs ended.
    this.#epoch = (this.#epoch + 1) >>> 0 || 1;
    this.counters.restart(countKey(destination), this.#epoch, windowMs, this.now());
    return Promise.resolve();
  }

  private takeNow(send: SendCounts): CountsTaken {
    const now = this.now();
    const { counters } = this;
    const ip = send.ip && { ...send.ip, at: countKey(send.ip.key) };
    if (ip) {
      const count = counters.read(ip.at, now);
      if (count.count >= ip.limit) return { allowed: false, at: 'ip', retryAfterMs: count.endsAt - now };
    }
    const destinations: Array<{ at: CountKey; pair: CountKey; epoch: number; windowMs: number }> = [];
    for (const [index, d] of send.destinations.entries()) {
      const at = countKey(d.key);
      const total = counters.read(at, now);
      if (total.count >= d.total) return { allowed: false, at: index, retryAfterMs: total.endsAt - now };
      const pair = countKey(d.pair);
      const own = counters.read(pair, now);
      if (own.epoch === total.epoch && own.count >= d.limit) {
        return { allowed: false, at: index, retryAfterMs: own.endsAt - now };
      }
      destinations.push({ at, pair, epoch: total.epoch, windowMs: d.windowMs });
    }
    if (ip) counters.add(ip.at, 0, ip.windowMs, now);
    for (const d of destinations) {
      counters.add(d.at, d.epoch, d.windowMs, now);
      counters.add(d.pair, d.epoch, d.windowMs, now);
    }
    let refunded = false;
    const refund = () => {
      if (refunded) return Promise.resolve();
      refunded = true;
      const later = this.now();
      if (ip) counters.subtract(ip.at, later);
      for (const d of destinations) {
        counters.subtract(d.at, later);
        counters.subtract(d.pair, later);
      }
      return Promise.resolve();
    };
    return { allowed: true, refund };
  }
}
