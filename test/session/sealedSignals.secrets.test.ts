// The secrets that seal a cookie session's risk signals reach the strategy and the guards beside
// the request, never on it: a logger or an error page that inspects the request (hidden and
// symbol-keyed members included) shows none of them, and sealing still works.
import { inspect } from 'node:util';
import { describe, expect, it } from 'vitest';
import { requireLowRisk, sessionCompat } from '../../src/index.js';
import { loginVia } from '../helpers/harness.js';
import { useSharedEmulator } from '../helpers/sharedEmulator.js';

const { harness } = useSharedEmulator();
const SEAL_SECRET = 'a-seal-secret-nobody-may-see';

describe('the seal secrets are not on the request object', () => {
  it('util.inspect(req, { showHidden: true }) shows no secret, and a login still seals its signals', async () => {
    const seen: string[] = [];
    const h = await harness({
      strategy: { enrich: ['secureInfo'] },
      routes: (app) => {
        // A secret of its own (cookie-session keeps its own keys on the request: that is its business).
        app.get('/inspect', sessionCompat({ secret: SEAL_SECRET }), (req, res) => {
          seen.push(inspect(req, { showHidden: true, depth: 4 }));
          res.json({ ok: true });
        });
        app.get('/guarded', requireLowRisk(), (_req, res) => res.json({ ok: true }));
      },
    });
    const browser = h.browser();
    expect((await loginVia(h, browser, { email: 'inspect@example.com' }, 'vpn')).status).toBe(302);
    expect((await browser.get('/inspect')).status).toBe(200);
    expect(seen).toHaveLength(1);
    expect(seen[0]).toContain('IncomingMessage');
    expect(seen[0]).not.toContain(SEAL_SECRET);
    expect(seen[0]).not.toContain('sealSecrets');
    // The secrets still reach the guard: the sealed signals open, and are judged.
    const guarded = await browser.get('/guarded').set('accept', 'application/json');
    expect(guarded.body).toEqual({ error: { code: 'RISK_CHALLENGE' } });
  });
});
