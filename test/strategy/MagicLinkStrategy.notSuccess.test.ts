/**
 * A login whose service answer says a state other than SUCCESS is refused with 502 SERVICE_NOT_SUCCESS
 * (the service's fault, never the visitor's), one warning to the operator, and no session:
 * by the link (verify-code), by a frontend token (validate-token) and with secure-info asked.
 */
import type express from 'express';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Emulator } from '../../src/emulator/index.js';
import { clickLink, lastLinkTo, type Harness, type HarnessOptions } from '../helpers/harness.js';
import { useSharedEmulator } from '../helpers/sharedEmulator.js';
import { watchWarnings } from '../helpers/warnings.js';

const pool = useSharedEmulator();
let emulator: Emulator;
beforeAll(() => {
  emulator = pool.emulator();
});
const warnings = watchWarnings();

/** The route error as an app's JSON error handler shows it: status, code and the client's code. */
function errorBody(app: express.Express): void {
  app.use(
    (
      err: { status?: number; code?: string; cause?: { code?: string } },
      _req: express.Request,
      res: express.Response,
      _next: express.NextFunction,
    ) => {
      res.status(err.status ?? 500).json({ code: err.code, cause: err.cause?.code });
    },
  );
}

async function app(options: HarnessOptions = {}): Promise<Harness> {
  return pool.harness({ routes: errorBody, ...options });
}

const REFUSED = { code: 'SERVICE_NOT_SUCCESS', cause: 'NOT_SUCCESS' };

describe('a state other than SUCCESS fails the login with 502 SERVICE_NOT_SUCCESS', () => {
  it('by the link: verify-code says NOT_FOUND', async () => {
    const h = await app();
    const browser = h.browser();
    const sent = await browser
      .post('/auth/magic-link')
      .set('accept', 'application/json')
      .send({ email: 'st-code@example.com' });
    expect(sent.status).toBe(200);
    const callback = await clickLink(lastLinkTo(emulator, 'st-code@example.com'));
    emulator.setQuirks({ statusNotSuccess: true });
    const res = await browser.get(callback);
    expect(res.status).toBe(502);
    expect(res.body).toEqual(REFUSED);
    expect((await browser.get('/me')).status).toBe(401);
    expect(warnings.map((w) => w.code)).toContain('OTPLESS_NOT_SUCCESS');
  });

  it('by a frontend token: validate-token says NOT_FOUND', async () => {
    const h = await app();
    const token = emulator.issueToken({ email: 'st-token@example.com' });
    emulator.setQuirks({ statusNotSuccess: true });
    const browser = h.browser();
    const res = await browser.post('/auth/callback').set('origin', h.baseUrl).type('form').send({ token });
    expect(res.status).toBe(502);
    expect(res.body).toEqual(REFUSED);
    expect((await browser.get('/me')).status).toBe(401);
  });

  it('with secure-info asked: its NOT_FOUND fails the login too', async () => {
    const h = await app({ strategy: { enrich: ['secureInfo'] } });
    const browser = h.browser();
    await browser.post('/auth/magic-link').set('accept', 'application/json').send({ email: 'st-secure@example.com' });
    const callback = await clickLink(lastLinkTo(emulator, 'st-secure@example.com'));
    // Only secure-info answers the other state: verify-code's answer is SUCCESS.
    emulator.fault({
      path: '/auth/v1/secure-info',
      status: 200,
      body: { status: 'NOT_FOUND', secure_info: {}, network_info: {}, device_info: {} },
    });
    const res = await browser.get(callback);
    expect(res.status).toBe(502);
    expect(res.body).toEqual(REFUSED);
    expect((await browser.get('/me')).status).toBe(401);
  });
});
