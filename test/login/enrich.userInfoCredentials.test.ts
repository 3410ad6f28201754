// User info is optional: its failure never fails a login. Refused credentials on it still
// reach the operator, once, as a PassportOtplessWarning.
import { describe, expect, it } from 'vitest';
import { loginVia } from '../helpers/harness.js';
import { useSharedEmulator } from '../helpers/sharedEmulator.js';

const pool = useSharedEmulator();

describe('refused credentials on the optional user-info call', () => {
  it('sign the person in without user info, and warn the operator once', async () => {
    const h = await pool.harness({ strategy: { enrich: ['userInfo'] } });
    const emulator = pool.emulator();
    const codes: string[] = [];
    const onWarning = (w: Error & { code?: string }) =>
      void (w.name === 'PassportOtplessWarning' && codes.push(w.code ?? ''));
    process.on('warning', onWarning);
    try {
      emulator.fault({ path: '/auth/userInfo', error: 'invalidCredentials', times: 2 } as never);
      expect((await loginVia(h, h.browser(), { email: 'ui1@example.com' })).status).toBe(302);
      expect((await loginVia(h, h.browser(), { email: 'ui2@example.com' })).status).toBe(302);
      await new Promise((r) => setImmediate(r));
      expect(codes).toEqual(['OTPLESS_CREDENTIALS']);
    } finally {
      process.off('warning', onWarning);
    }
  });
});
