/**
 * The emulator's clock: real time plus an offset that `advanceTime` grows, so tests can expire
 * links, codes and tokens without waiting. It never goes backwards.
 */
export class Clock {
  private offsetMs = 0;

  /** Epoch ms on the emulator's clock. */
  now(): number {
    return Date.now() + this.offsetMs;
  }

  advance(ms: number): void {
    if (!Number.isFinite(ms) || ms < 0) {
      throw new TypeError(`advanceTime(ms): ms must be a finite number >= 0, got ${String(ms)}`);
    }
    this.offsetMs += ms;
  }
}
