/**
 * Waits that `close()` can cancel, so a delayed answer (fault or base latency) never keeps the
 * process alive after the emulator is closed.
 */
export class Waits {
  private readonly pending = new Set<NodeJS.Timeout>();

  /** Resolves after `ms`; never resolves when cancelled first (the socket is gone by then). */
  wait(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.pending.delete(timer);
        resolve();
      }, ms);
      this.pending.add(timer);
    });
  }

  cancelAll(): void {
    for (const timer of this.pending) clearTimeout(timer);
    this.pending.clear();
  }
}
