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

describe('a check remembered for one list of secrets counts for that list only', () => {
  it('signals a guard opened with the cookie key do not count on a route whose secrets cannot open them', async () => {
    const h = await harness({
      strategy: { enrich: ['secureInfo'] },
      routes: (app) => {
        app.get('/guarded', requireLowRisk(), (_req, res) => res.json({ ok: true }));
        // As an app that took the sealing key out of its list: the sealed signals no longer open.
        app.get(
          '/other-secret',
          sessionCompat({ secret: 'a-secret-that-sealed-nothing' }),
          requireLowRisk(),
          (_req, res) => res.json({ ok: true }),
        );
      },
    });
    const browser = h.browser();
    expect((await loginVia(h, browser, { email: 'rotated@example.com' }, 'clean')).status).toBe(302);
    const json = { accept: 'application/json' };
    // Opened and judged once, so remembered for this record...
    expect((await browser.get('/guarded').set(json)).body).toEqual({ ok: true });
    // ...but not for a request whose secrets would not open it: fail closed, as if read afresh.
    const other = await browser.get('/other-secret').set(json);
    expect(other.status).toBe(403);
    expect(other.body).toEqual({ error: { code: 'RISK_BLOCKED' } });
    // The remembered check still counts where the same secrets are given.
    expect((await browser.get('/guarded').set(json)).body).toEqual({ ok: true });
  });
});
