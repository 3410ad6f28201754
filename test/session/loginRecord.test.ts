import type express from 'express';
import passportPkg from 'passport';
import { describe, expect, it } from 'vitest';
import { requireIdentity, requireLowRisk } from '../../src/index.js';
import { loginVia } from '../helpers/harness.js';
import type { Harness, SessionKind } from '../helpers/harness.js';
import { useSharedEmulator } from '../helpers/sharedEmulator.js';

// Finding 4 of issue #12: after another strategy logged someone else in with
// `keepSessionInfo`, the guards judged that user by the earlier magic-link login (its clean
// signals, its verified e-mail). The record now names the user it was written for, and counts
// only while the session holds that user: otherwise the guards see no magic-link login.
const { harness } = useSharedEmulator();

/** A second way to log in, as an app might have (a password form, say), that keeps the session. */
class OtherStrategy extends passportPkg.Strategy {
  override name = 'other';
  override authenticate(req: express.Request): void {
    const as = typeof req.query.as === 'string' ? req.query.as : 'bob';
    // `as=same` logs in the very user the magic link logged in (the same serialized user).
    this.success(as === 'same' ? { id: 'alice@example.com', email: 'alice@example.com' } : { id: as });
  }
}

async function appWithTwoStrategies(session: SessionKind): Promise<Harness> {
  const ref: { passport?: passportPkg.PassportStatic } = {};
  const h = await harness({
    session,
    strategy: { enrich: ['secureInfo'] },
    routes: (app) => {
      app.get('/auth/other', (req, res, next) =>
        ref.passport!.authenticate('other', { keepSessionInfo: true, successRedirect: '/me' })(req, res, next),
      );
      app.get('/guarded', requireLowRisk(), (req, res) => res.json({ ok: true, user: req.user }));
      app.get('/needs-email', requireIdentity('EMAIL'), (req, res) => res.json({ ok: true, user: req.user }));
    },
  });
  h.passport.use(new OtherStrategy());
  ref.passport = h.passport;
  return h;
}

const json = { accept: 'application/json' };

describe.each<SessionKind>(['cookie', 'express'])('a login record belongs to its user (%s session)', (session) => {
  it('another user logged in by another strategy with keepSessionInfo is not judged by it', async () => {
    const h = await appWithTwoStrategies(session);
    const browser = h.browser();
    expect((await loginVia(h, browser, { email: 'alice@example.com' }, 'clean')).status).toBe(302);
    expect((await browser.get('/guarded').set(json)).status).toBe(200);
    expect((await browser.get('/needs-email').set(json)).status).toBe(200);

    expect((await browser.get('/auth/other?as=bob')).status).toBe(302);
    const me = await browser.get('/me').set(json);
    expect(me.body.user).toEqual({ id: 'bob' });
    // The record is still in the session (keepSessionInfo kept it) but is not Bob's.
    expect(me.body.record).toBeNull();

    // Bob has no magic-link login: he must sign in with it, as docs/risk-guards.md says (401
    // UNAUTHENTICATED, a page for a browser), not a server error.
    for (const route of ['/guarded', '/needs-email']) {
      const res = await browser.get(route).set(json);
      expect(res.status, route).toBe(401);
      expect(res.body).toEqual({ error: { code: 'UNAUTHENTICATED' } });
      const page = await browser.get(route).set('accept', 'text/html');
      expect(page.status, route).toBe(401);
      expect(page.text).not.toContain('"ok"');
    }
  });

  it('the same user logged in again by another strategy keeps the magic-link record', async () => {
    const h = await appWithTwoStrategies(session);
    const browser = h.browser();
    await loginVia(h, browser, { email: 'alice@example.com' }, 'vpn');
    expect((await browser.get('/guarded').set(json)).body).toEqual({ error: { code: 'RISK_CHALLENGE' } });
    await browser.get('/auth/other?as=same');
    // Still Alice: switching strategies does not launder her (risky) magic-link login. A cookie
    // session keeps the record; a server-side one got a new id, to which the record is not bound,
    // so its guards refuse her until the next magic-link login (fail closed).
    if (session === 'cookie') {
      expect((await browser.get('/guarded').set(json)).body).toEqual({ error: { code: 'RISK_CHALLENGE' } });
      expect((await browser.get('/me').set(json)).body.record).toMatchObject({ id: 'alice@example.com' });
    } else {
      const res = await browser.get('/guarded').set(json);
      expect(res.status).toBe(401);
      expect(res.body.error.code).toBe('UNAUTHENTICATED');
      expect((await browser.get('/me').set(json)).body.record).toBeNull();
    }
  });

  it('a magic-link login after the other one counts again', async () => {
    const h = await appWithTwoStrategies(session);
    const browser = h.browser();
    await browser.get('/auth/other?as=bob');
    expect((await browser.get('/guarded').set(json)).status).toBe(500);
    await loginVia(h, browser, { email: 'alice@example.com' }, 'clean');
    expect((await browser.get('/guarded').set(json)).status).toBe(200);
  });
});
