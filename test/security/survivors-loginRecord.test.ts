// Mutation survivors of the login record's user binding (docs/testing.md). A guard remembers,
// per user object, the binding it computed, and trusts it while the object keeps the same
// members. An app that changes the session's user in place during a request (after one guard
// ran, before another) must be judged by the user as it is now, never by the remembered one.
import type express from 'express';
import { describe, expect, it } from 'vitest';
import { requireIdentity } from '../../src/index.js';
import { loginVia } from '../helpers/harness.js';
import type { Harness } from '../helpers/harness.js';
import { useSharedEmulator } from '../helpers/sharedEmulator.js';

const { harness } = useSharedEmulator();

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
  ])('%s: another serialized user, so no magic-link login for it (500 SETUP_ERROR)', async (how) => {
    const h = await app();
    const browser = h.browser();
    expect((await loginVia(h, browser, { email: 'alice@example.com' })).status).toBe(302);
    const res = await browser.get(`/twice?how=${encodeURIComponent(how)}`).set('accept', 'application/json');
    expect(res.status).toBe(500);
    expect(res.body.error.code).toBe('SETUP_ERROR');
    expect(res.body.error.message).toContain('found no magic-link login');
  });

  it("a nested object's member changed in place: another serialized user (500)", async () => {
    const h = await app({ id: 'acme' });
    const browser = h.browser();
    expect((await loginVia(h, browser, { email: 'alice@example.com' })).status).toBe(302);
    const same = await browser.get('/twice?how=nothing').set('accept', 'application/json');
    expect(same.status).toBe(200);
    const res = await browser
      .get(`/twice?how=${encodeURIComponent('a member of the nested object changed')}`)
      .set('accept', 'application/json');
    expect(res.status).toBe(500);
    expect(res.body.error.code).toBe('SETUP_ERROR');
  });

  it('a member a prototype lent, then made its own: another serialized user (500)', async () => {
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
    expect(res.status).toBe(500);
    expect(res.body.error.code).toBe('SETUP_ERROR');
  });
});
