/** How the emulator's clock runs: with real time, or only when `advanceTime` moves it. */
export type ClockMode = 'real' | 'manual';

export const CLOCK_MODES: readonly ClockMode[] = ['real', 'manual'];

/**
 * The emulator's clock, so tests can expire links, codes and tokens without waiting. It never
 * goes backwards.
 * - 'real' (default): real time plus an offset that `advanceTime` grows.
 * - 'manual': frozen at the moment the emulator started; only `advanceTime` moves it, so a test
 *   can stand exactly 1 ms before an expiry, or exactly on it.
 */
export class Clock {
  private offsetMs = 0;
  private readonly frozenAt: number | undefined;

  constructor(mode: ClockMode = 'real') {
    this.frozenAt = mode === 'manual' ? Date.now() : undefined;
  }

  /** Epoch ms on the emulator's clock. */
  now(): number {
    return (this.frozenAt ?? Date.now()) + this.offsetMs;
  }

  advance(ms: number): void {
    if (!Number.isFinite(ms) || ms < 0) {
      throw new TypeError(`advanceTime(ms): ms must be a finite number >= 0, got ${String(ms)}`);
    }
    this.offsetMs += ms;
  }
}
