import passportPkg from 'passport';
import { describe, expect, it } from 'vitest';
import { readLoginRecord, requireIdentity, requireLowRisk } from '../../src/index.js';
import { clickLink, lastLinkTo, loginVia } from '../helpers/harness.js';
import type { Harness, SessionKind } from '../helpers/harness.js';
import { useSharedEmulator } from '../helpers/sharedEmulator.js';
import express from 'express';
import expressSession from 'express-session';
import supertest from 'supertest';
import { signedSessionCookie } from '../helpers/sessionCookie.js';

// After another strategy logs someone else in with `keepSessionInfo`, the guards must not judge
// that user by the earlier magic-link login (its clean signals, its verified e-mail). The record names the user it was written for, and counts
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

// The login record, edge by edge.
// - Its user binding: a guard remembers, per user object, the binding it computed, and trusts it
//   while the object keeps the same members. An app that changes the session's user in place
//   during a request (after one guard ran, before another) must be judged by the user as it is
//   now, never by the remembered one.
// - A record altered by whoever can write the session store counts for nothing.
// - It is not written for a `session: false` login (`returnTo`: strategy/MagicLinkStrategy.callback.test.ts).

type User = Record<string, unknown>;

/** How the app changes the session's user between the two guards of GET /twice?how=... */
const CHANGES: Record<string, (user: User, session: { passport: { user: unknown } }) => void> = {
  nothing: () => {},
  'a value written back as it was': (user) => {
    user.id = String(user.id);
  },
  'a copy put in its place': (user, session) => {
    session.passport.user = { ...user };
  },
  'a value changed': (user) => {
    user.id = 'mallory@example.com';
  },
  'a member added': (user) => {
    user.role = 'admin';
  },
  'a member removed': (user) => {
    delete user.email;
  },
  'the members reordered': (user) => {
    const id = user.id;
    delete user.id;
    user.id = id;
  },
  'a nested object added': (user) => {
    user.org = { id: 'other' };
  },
  'a toJSON given by a new prototype': (user) => {
    Object.setPrototypeOf(user, { toJSON: () => ({ id: 'mallory@example.com' }) });
  },
  'a toJSON given by a null prototype': (user) => {
    Object.setPrototypeOf(user, null);
    Object.defineProperty(user, 'toJSON', { value: () => ({ id: 'mallory@example.com' }), enumerable: false });
  },
  'a member of the nested object changed': (user) => {
    (user.org as User).id = 'other';
  },
  // With 'a prototype lending a member' first: JSON skips what a prototype lends, not an own member.
  'the lent member made its own': (user) => {
    user.role = 'admin';
  },
};

/** Changes made before the first guard, so the user is first seen already changed. */
const BEFORE: Record<string, (user: User) => void> = {
  'a prototype lending a member': (user) => {
    Object.setPrototypeOf(user, { role: 'admin' });
  },
};

/**
 * The app: the change `before` (if any), `requireIdentity('EMAIL')`, the change `how`, then
 * `requireIdentity('EMAIL')` again. `org` gives the user a nested object.
 */
async function app(org?: User): Promise<Harness> {
  return harness({
    ...(org ? { verify: async (profile) => ({ id: profile.id, org }) } : {}),
    routes: (a: express.Express) => {
      a.get(
        '/twice',
        (req, _res, next) => {
          const session = req.session as unknown as { passport: { user: User } };
          if (req.query.before) BEFORE[String(req.query.before)]!(session.passport.user);
          next();
        },
        requireIdentity('EMAIL'),
        (req, _res, next) => {
          const session = req.session as unknown as { passport: { user: User } };
          CHANGES[String(req.query.how)]!(session.passport.user, session);
          next();
        },
        requireIdentity('EMAIL'),
        (_req, res) => res.json({ ok: true }),
      );
    },
  });
}

describe("the guards judge the session's user as it is now, even when changed in place mid-request", () => {
  it.each(['nothing', 'a value written back as it was', 'a copy put in its place'])(
    '%s: the same user, the magic-link login still counts (200)',
    async (how) => {
      const h = await app();
      const browser = h.browser();
      expect((await loginVia(h, browser, { email: 'alice@example.com' })).status).toBe(302);
      const res = await browser.get(`/twice?how=${encodeURIComponent(how)}`).set('accept', 'application/json');
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ ok: true });
    },
  );

  it.each([
    'a value changed',
    'a member added',
    'a member removed',
    'the members reordered',
    'a nested object added',
    'a toJSON given by a new prototype',
    'a toJSON given by a null prototype',
  ])('%s: another serialized user, so no magic-link login for it (401 UNAUTHENTICATED)', async (how) => {
    const h = await app();
    const browser = h.browser();
    expect((await loginVia(h, browser, { email: 'alice@example.com' })).status).toBe(302);
    const res = await browser.get(`/twice?how=${encodeURIComponent(how)}`).set('accept', 'application/json');
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ error: { code: 'UNAUTHENTICATED' } });
  });

  it("a nested object's member changed in place: another serialized user (401)", async () => {
    const h = await app({ id: 'acme' });
    const browser = h.browser();
    expect((await loginVia(h, browser, { email: 'alice@example.com' })).status).toBe(302);
    const same = await browser.get('/twice?how=nothing').set('accept', 'application/json');
    expect(same.status).toBe(200);
    const res = await browser
      .get(`/twice?how=${encodeURIComponent('a member of the nested object changed')}`)
      .set('accept', 'application/json');
    expect(res.status).toBe(401);
    expect(res.body.error.code).toBe('UNAUTHENTICATED');
  });

  it('a member a prototype lent, then made its own: another serialized user (401)', async () => {
    const h = await app();
    const browser = h.browser();
    expect((await loginVia(h, browser, { email: 'alice@example.com' })).status).toBe(302);
    const before = encodeURIComponent('a prototype lending a member');
    // Lent only, the member is not in the JSON: still the user who logged in.
    expect((await browser.get(`/twice?before=${before}&how=nothing`).set('accept', 'application/json')).status).toBe(
      200,
    );
    const res = await browser
      .get(`/twice?before=${before}&how=${encodeURIComponent('the lent member made its own')}`)
      .set('accept', 'application/json');
    expect(res.status).toBe(401);
    expect(res.body.error.code).toBe('UNAUTHENTICATED');
  });
});

type Stored = Record<string, unknown> & { otpless: Record<string, unknown>; passport: Record<string, unknown> };

/** Who can write the session store (a Redis, say) may alter the record: each alteration alone. */
const ALTERED: Record<string, (stored: Stored) => Record<string, unknown>> = {
  'another format version': (s) => ({ ...s, otpless: { ...s.otpless, v: 3 } }),
  'the format of the previous version': (s) => ({ ...s, otpless: { ...s.otpless, v: 1 } }),
  'an id that is not a string': (s) => ({ ...s, otpless: { ...s.otpless, id: 7 } }),
  'a binding that is not a string': (s) => ({ ...s, otpless: { ...s.otpless, b: 7 } }),
  'another binding': (s) => ({ ...s, otpless: { ...s.otpless, b: 'A'.repeat(22) } }),
  'a key id this process does not have': (s) => ({ ...s, otpless: { ...s.otpless, k: 'A'.repeat(11) } }),
  'a key id that is not a string': (s) => ({ ...s, otpless: { ...s.otpless, k: 7 } }),
  'verified types that are not a list': (s) => ({ ...s, otpless: { ...s.otpless, verified: 'EMAIL' } }),
  'a record that is a string': (s) => ({ ...s, otpless: 'otpless' }),
  'no record': (s) => ({ ...s, otpless: null }),
  // No binding and no user both read as "none": still no login, never a login of nobody.
  'no binding, and no user in the session': (s) => {
    const { b: _b, ...record } = s.otpless;
    const { passport: _passport, ...rest } = s;
    return { ...rest, otpless: record };
  },
};

describe('a login record altered in the session store no longer counts', () => {
  it.each(Object.keys(ALTERED))('%s: the guard does not pass, readLoginRecord() gives none', async (how) => {
    const store = new expressSession.MemoryStore();
    const h = await harness({
      session: 'express',
      sessionStore: store,
      routes: (a) => {
        a.get('/guarded', requireIdentity('EMAIL'), (_req, res) => res.json({ ok: true }));
        a.get('/record', (req, res) => res.json({ record: readLoginRecord(req) ?? null }));
      },
    });
    const browser = h.browser();
    expect((await loginVia(h, browser, { email: 'alice@example.com' })).status).toBe(302);
    expect((await browser.get('/guarded').set('accept', 'application/json')).status).toBe(200);
    const me = await browser.get('/me');
    expect(me.body.record).toMatchObject({ v: 2, id: 'alice@example.com', verified: ['EMAIL'] });

    const sessions = (store as unknown as { sessions: Record<string, string> }).sessions;
    const stored = JSON.parse(sessions[me.body.sessionID]!) as Stored;
    sessions[me.body.sessionID] = JSON.stringify(ALTERED[how]!(stored));

    const res = await browser.get('/guarded').set('accept', 'application/json');
    // A record that does not count is no magic-link login of this user: sign in again (401).
    // With no record at all, a logged-in user never went through the strategy: the setup error.
    const noRecord = how === 'no record';
    expect(res.status).toBe(noRecord ? 500 : 401);
    expect(res.body.error.code).toBe(noRecord ? 'NO_LOGIN_RECORD' : 'UNAUTHENTICATED');
    // What an app reading the record itself gets, logged in or not.
    expect((await browser.get('/record')).body).toEqual({ record: null });
  });
});

describe('when the record is written', () => {
  it("a login with `session: false` (an API answer) leaves the session's earlier login and its record alone", async () => {
    const ref: { h?: Harness } = {};
    const h = await harness({
      routes: (a) =>
        a.get(
          '/auth/api-callback',
          (req, res, next) => ref.h!.passport.authenticate('magic-link', { session: false })(req, res, next),
          (req, res) => res.json({ user: req.user }),
        ),
    });
    ref.h = h;
    const browser = h.browser();
    expect((await loginVia(h, browser, { email: 'alice@example.com' })).status).toBe(302);
    await browser.post('/auth/magic-link').set('accept', 'application/json').send({ email: 'bob@example.com' });
    const callback = await clickLink(lastLinkTo(h.emulator, 'bob@example.com'));
    const api = await browser.get(callback.replace('/auth/callback', '/auth/api-callback'));
    expect(api.status).toBe(200);
    expect(api.body.user).toMatchObject({ id: 'bob@example.com' });
    const me = await browser.get('/me');
    expect(me.body.user).toMatchObject({ id: 'alice@example.com' });
    expect(me.body.record).toMatchObject({ id: 'alice@example.com' });
  });
});

describe('readLoginRecord() on a request without a session', () => {
  it('gives none, without failing: a route the app serves before (or without) its session middleware', async () => {
    const app = express();
    app.get('/record', (req, res) => res.json({ record: readLoginRecord(req) ?? null }));
    const res = await supertest(app).get('/record');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ record: null });
  });
});

// A cookie session written by this version must still be read by the next one: the record's
// format, the keyed binding (its key derived from the client secret, what it covers), the key
// derived for the sealed signals and the context they are sealed under are all part of what an
// upgrade must keep (or change on purpose, with a new format version). This cookie was written
// by a real login (harness client secret and cookie key, `vpn` risk).

const WRITTEN = {
  passport: { user: { id: 'pinned@example.com', email: 'pinned@example.com' } },
  otpless: {
    v: 2,
    id: 'pinned@example.com',
    verified: ['EMAIL'],
    risk: {
      action: 'challenge',
      at: 1795708645386,
      s: 'MB1Hcyfz8ukWYOGr.16Is5CBa9b2ooUGwX2ITFA.p4ff1gDcbo-tdwqvH2pLkP6vQ7HHoZz3FX_apWNmJfmvoro1fVISJ38YHiA4XOmhBfAY1pJJT5sjdYjue1Qd9fQ-IhIY',
    },
    k: 'AtOu9A5yVOL',
    b: '9iXpbjpnVF-tWFNNOrEYqw',
  },
};

/**
 * The same login as the previous version wrote it: its user binding was an unkeyed hash, which a
 * writer of the session store could compute, so this version reads it as no record.
 */
const WRITTEN_BEFORE = {
  passport: { user: { id: 'pinned@example.com', email: 'pinned@example.com' } },
  otpless: {
    v: 1,
    id: 'pinned@example.com',
    verified: ['EMAIL'],
    risk: {
      action: 'challenge',
      at: 1795633071188,
      s: 'NRtljgP5cmngA_SM.lxW2bc5u9WnYrH65SFYxmw.f3ZvJEOaXc4WQ6cpVAhq4_B1gBKLy_UCUs6_PQH05NkMltEePCvqL_nMVfwEJsOhYon3oQXlcvPzkrPHNqEg87kpGODq',
    },
    u: 'JOXcbxSQi6zBuBGkqnpIFh',
  },
};
/** What the sealed `s` holds: the compact signals of a `vpn` login. */
const SIGNALS = { v: 1, f: '0#n001000#0#0000', c: 0.99, m: 'tp', a: 0.02, r: 0, s: 7 };

async function writtenCookieApp() {
  return harness({
    routes: (a) => {
      a.get('/record', (req, res) => res.json({ record: readLoginRecord(req) ?? null }));
      a.get('/guarded', requireLowRisk(), (_req, res) => res.json({ ok: true }));
    },
  });
}

describe('a cookie session written by this version', () => {
  it('is read back: the same user, its record, its signals opened, and the guard judges them', async () => {
    const h = await writtenCookieApp();
    const browser = h.browser().set('cookie', signedSessionCookie(WRITTEN));
    const me = await browser.get('/me');
    expect(me.status).toBe(200);
    expect(me.body.user).toEqual(WRITTEN.passport.user);
    expect((await browser.get('/record')).body.record).toEqual({
      ...WRITTEN.otpless,
      risk: { signals: SIGNALS, action: 'challenge', at: WRITTEN.otpless.risk.at },
    });
    const guarded = await browser.get('/guarded').set('accept', 'application/json');
    expect(guarded.status).toBe(403);
    expect(guarded.body).toEqual({ error: { code: 'RISK_CHALLENGE' } });
  });

  it('with its signals given another time, it is no record: the binding covers every field', async () => {
    const h = await writtenCookieApp();
    const moved = { ...WRITTEN, otpless: { ...WRITTEN.otpless, risk: { ...WRITTEN.otpless.risk, at: 1795633071189 } } };
    const browser = h.browser().set('cookie', signedSessionCookie(moved));
    expect((await browser.get('/me')).status).toBe(200);
    expect((await browser.get('/record')).body.record).toBeNull();
    const guarded = await browser.get('/guarded').set('accept', 'application/json');
    expect(guarded.status).toBe(401);
    expect(guarded.body.error.code).toBe('UNAUTHENTICATED');
  });
});

describe('a cookie session written by the previous version', () => {
  it('is still logged in, but its record is none: the guards fail closed until the next login', async () => {
    const h = await writtenCookieApp();
    const browser = h.browser().set('cookie', signedSessionCookie(WRITTEN_BEFORE));
    const me = await browser.get('/me');
    expect(me.status).toBe(200);
    expect(me.body.user).toEqual(WRITTEN_BEFORE.passport.user);
    expect((await browser.get('/record')).body.record).toBeNull();
    const guarded = await browser.get('/guarded').set('accept', 'application/json');
    expect(guarded.status).toBe(401);
    expect(guarded.body.error.code).toBe('UNAUTHENTICATED');
  });
});
