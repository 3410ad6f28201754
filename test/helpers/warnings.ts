import { afterAll, beforeAll } from 'vitest';

/** A PassportOtplessWarning as the operator's log shows it. */
export interface SeenWarning {
  code?: string;
  message: string;
}

/**
 * Every PassportOtplessWarning the process emits while the tests of the file (or of the
 * `describe` block it is called in) run, in order. Empty it with `warnings.length = 0`.
 * Warnings are emitted on the next tick: await `settleWarnings()` before reading.
 */
export function watchWarnings(): SeenWarning[] {
  const warnings: SeenWarning[] = [];
  const onWarning = (w: Error & { code?: string }) => {
    if (w.name === 'PassportOtplessWarning') warnings.push({ code: w.code, message: w.message });
  };
  beforeAll(() => {
    process.on('warning', onWarning);
  });
  afterAll(() => {
    process.off('warning', onWarning);
  });
  return warnings;
}

/** Resolves once the warnings emitted so far have reached their listeners. */
export const settleWarnings = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));
