// `crossDevice: 'accept'` without `confirm` lets a mail scanner's GET sign itself in: the
// operator is told once (PassportOtplessWarning OTPLESS_SCANNER_SIGNS_IN) when such a strategy
// is made, and never for the default handoff, `'refuse'`, or `'accept'` with `confirm: true`.
// Isolated: the warning is emitted once per process.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MagicLinkStrategy } from '../../src/index.js';
import type { MagicLinkStrategyOptions } from '../../src/index.js';

const warnings: { code: string; message: string }[] = [];
const onWarning = (w: Error & { code?: string }): void => {
  if (w.name === 'PassportOtplessWarning') warnings.push({ code: String(w.code), message: w.message });
};
beforeAll(() => {
  process.on('warning', onWarning);
});
afterAll(() => {
  process.off('warning', onWarning);
});

const base = {
  clientId: 'scanner-client',
  clientSecret: 'scanner-secret-value-0123456789',
  callbackUrl: 'https://app.example.com/auth/callback',
};
/** Makes a strategy, then lets the process deliver its warnings (emitted on the next tick). */
async function make(extra: Pick<MagicLinkStrategyOptions, 'crossDevice' | 'confirm'>): Promise<string[]> {
  const from = warnings.length;
  new MagicLinkStrategy({ ...base, ...extra }, async (profile) => ({ id: profile.id }));
  await new Promise((resolve) => setImmediate(resolve));
  return warnings.slice(from).map((w) => w.code);
}

describe('the scanner warning', () => {
  it("says nothing for the default handoff, 'refuse', or 'accept' with confirm: true", async () => {
    expect(await make({})).toEqual([]);
    expect(await make({ crossDevice: 'handoff' })).toEqual([]);
    expect(await make({ crossDevice: 'refuse' })).toEqual([]);
    expect(await make({ crossDevice: 'accept', confirm: true })).toEqual([]);
  });

  it("warns once for crossDevice: 'accept' without confirm, naming the fix and no secret", async () => {
    expect(await make({ crossDevice: 'accept' })).toEqual(['OTPLESS_SCANNER_SIGNS_IN']);
    const warning = warnings.find((w) => w.code === 'OTPLESS_SCANNER_SIGNS_IN')!;
    expect(warning.message).toMatch(/confirm: true/);
    expect(warning.message).not.toContain(base.clientSecret);
    expect(await make({ crossDevice: 'accept', confirm: false })).toEqual([]);
  });
});
