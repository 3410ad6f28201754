import type express from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requireLowRisk } from '../../src/index.js';
import { loginVia, startHarness, type Harness } from '../helpers/harness.js';

let h: Harness;
const errors: unknown[] = [];
beforeAll(async () => {
  h = await startHarness({
    strategy: { enrich: ['secureInfo'] },
    routes: (app: express.Express) => {
      // Express handlers often `return res.status(...).send(...)`: that is `res`, not a promise.
      const refused = (_req: unknown, res: express.Response) => res.status(403).send('refused here');
      app.get('/pay', requireLowRisk({ onChallenge: refused as never }), (_req, res) => res.send('paid'));
      app.use((err: unknown, _req: express.Request, _res: express.Response, next: express.NextFunction) => {
        errors.push(err);
        next(err);
      });
    },
  });
});
afterAll(() => h.close());

describe('a guard handler that returns a value', () => {
  it('answers what the handler wrote, and no error reaches the app', async () => {
    const browser = h.browser();
    await loginVia(h, browser, { email: 'returns@example.com' }, 'vpn');
    const res = await browser.get('/pay');
    expect(res.status).toBe(403);
    expect(res.text).toBe('refused here');
    expect(errors).toEqual([]);
  });
});
