import type { NextFunction, Request, Response } from 'express';
import { sessionCookie, signedSessionCookie } from '../helpers/sessionCookie.js';
import { describe, expect, it } from 'vitest';
import { requireLowRisk } from '../../src/index.js';
import type { GuardVerdict, RiskAuditEvent } from '../../src/index.js';
import { loginVia } from '../helpers/harness.js';
import { useSharedEmulator } from '../helpers/sharedEmulator.js';

// The guards remember what they may across requests (each checked login record, with its opened
// signals and every guard's verdict on them): none of it may let a changed user, a sealed value
// moved into another record, another guard's policy, or a handler's change to req.risk decide a
// later request.
const { harness } = useSharedEmulator();
const json = { accept: 'application/json' };

describe('what requireLowRisk() remembers never decides for another login, user or request', () => {
  it('sealed signals moved into another login’s record are refused, after both were opened', async () => {
    const events: RiskAuditEvent[] = [];
    const h = await harness({
      strategy: { enrich: ['secureInfo'] },
      routes: (app) =>
        app.get('/guarded', requireLowRisk({ audit: (e) => events.push(e) }), (_q, r) => r.json({ ok: true })),
    });
    const clean = h.browser();
    const risky = h.browser();
    const cleanLogin = await loginVia(h, clean, { email: 'clean-moved@example.com' }, 'clean');
    const riskyLogin = await loginVia(h, risky, { email: 'risky-moved@example.com' }, 'vpn');
    // Both logins' signals are opened (and remembered) once.
    expect((await clean.get('/guarded').set(json)).status).toBe(200);
    expect((await risky.get('/guarded').set(json)).status).toBe(403);

    // The risky session, signed as the app signs it, carrying the clean login's sealed signals.
    const forged = sessionCookie<Record<string, { risk: { s: string } }>>(riskyLogin);
    forged.otpless!.risk.s = sessionCookie<Record<string, { risk: { s: string } }>>(cleanLogin).otpless!.risk.s;
    // The record's keyed binding covers its sealed signals: the altered record is no record at all.
    const audited = events.length;
    const res = await h.browser().get('/guarded').set(json).set('cookie', signedSessionCookie(forged));
    expect(res.status).toBe(401);
    expect(res.body.error.code).toBe('UNAUTHENTICATED');
    expect(events.length).toBe(audited);
  });

  it('a user changed in place after a decision no longer has the login record', async () => {
    const guard = requireLowRisk();
    const h = await harness({
      strategy: { enrich: ['secureInfo'] },
      routes: (app) =>
        app.get(
          '/switch',
          guard,
          (req: Request, _res: Response, next: NextFunction) => {
            const to = req.query.to;
            const user = (req.session as unknown as { passport: { user: Record<string, unknown> } }).passport.user;
            if (to === 'same') user.id = String(user.id);
            else if (to === 'added') user.role = 'admin';
            else if (to === 'removed') delete user.email;
            else user.id = 'someone-else@example.com';
            next();
          },
          guard,
          (_req, res) => res.json({ ok: true }),
        ),
    });
    // Each change in a session of its own: cookie-session saves the changed user, after all.
    const session = async (to: string) => {
      const browser = h.browser();
      await loginVia(h, browser, { email: `in-place-${to}@example.com` }, 'clean');
      return browser.get(`/switch?to=${to}`).set(json);
    };
    // The same members again: still the user the login was written for.
    expect((await session('same')).status).toBe(200);
    for (const to of ['other', 'added', 'removed']) {
      const res = await session(to);
      // Another user than the login's: not signed in by the magic link (docs/frameworks.md).
      expect(res.status, to).toBe(401);
      expect(res.body, to).toEqual({ error: { code: 'UNAUTHENTICATED' } });
    }
  });

  it('a handler that changes req.risk changes nothing for the next request', async () => {
    const h = await harness({
      strategy: { enrich: ['secureInfo'] },
      routes: (app) =>
        app.get('/guarded', requireLowRisk(), (req, res) => {
          const risk = (req as unknown as { risk: GuardVerdict }).risk;
          const seen = { action: risk.action, reasons: risk.reasons.length };
          risk.action = 'block';
          risk.reasons.push({ signal: 'vpn', action: 'block' });
          res.json(seen);
        }),
    });
    const browser = h.browser();
    await loginVia(h, browser, { email: 'mutates@example.com' }, 'clean');
    for (let i = 0; i < 3; i++) {
      expect((await browser.get('/guarded').set(json)).body).toEqual({ action: 'allow', reasons: 0 });
    }
  });

  it('two guards with their own policies keep their own verdicts on the same login', async () => {
    const h = await harness({
      strategy: { enrich: ['secureInfo'] },
      routes: (app) => {
        app.get('/default', requireLowRisk(), (_q, r) => r.json({ ok: true }));
        app.get('/strict', requireLowRisk({ policy: { vpn: 'block' } }), (_q, r) => r.json({ ok: true }));
      },
    });
    const browser = h.browser();
    await loginVia(h, browser, { email: 'two-policies@example.com' }, 'vpn');
    for (let i = 0; i < 2; i++) {
      expect((await browser.get('/default').set(json)).body).toEqual({ error: { code: 'RISK_CHALLENGE' } });
      expect((await browser.get('/strict').set(json)).body).toEqual({ error: { code: 'RISK_BLOCKED' } });
    }
  });
});
