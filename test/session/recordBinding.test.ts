import { setTimeout as sleep } from 'node:timers/promises';
import type { RequestHandler } from 'express';
import expressSession from 'express-session';
import { describe, expect, it } from 'vitest';
import { readLoginRecord, requireIdentity, requireLowRisk, requireServiceSession } from '../../src/index.js';
import { bound, isBound, sessionUser, userText } from '../../src/session/recordBinding.js';
import { registerRecordKey } from '../../src/session/recordKeys.js';
import type { UnboundStoredRecord } from '../../src/session/recordFormat.js';
import { clickLink, lastLinkTo, loginVia } from '../helpers/harness.js';
import type { Harness, SessionKind } from '../helpers/harness.js';
import { signedSessionCookie, sessionCookie } from '../helpers/sessionCookie.js';
import { useSharedEmulator } from '../helpers/sharedEmulator.js';
import { settleWarnings, watchWarnings } from '../helpers/warnings.js';

// The login record's binding (`b`), field by field: whoever writes the session store (a Redis,
// a cookie re-signed with a leaked cookie key) changes one member of a record the package wrote,
// and the guards refuse it as no login of this user (401 UNAUTHENTICATED, or the login page),
// never a 500 and never a pass. Each case is run on express-session, the store reached into
// (its MemoryStore), and on cookie-session, where the record lives in the cookie.

const { harness } = useSharedEmulator();
const warnings = watchWarnings();

type Rec = Record<string, unknown>;
interface Stored extends Rec {
  passport: { user: unknown };
  otpless: Rec;
}
const JSON_ACCEPT = { accept: 'application/json' };
const UNAUTHENTICATED = { error: { code: 'UNAUTHENTICATED' } };

/** A key of this process other than the strategy's: a record may name it, but was not bound with it. */
const OTHER_KEY = registerRecordKey('another store secret of this process');

interface App extends Harness {
  store: expressSession.MemoryStore | undefined;
}

/**
 * An app with each guard on a route of its own, its signals fetched at login. `/refetching` refetches
 * signals older than 1 ms through secure-info (with express-session, where the token is kept).
 */
async function app(session: SessionKind, start: typeof harness = harness): Promise<App> {
  const store = session === 'express' ? new expressSession.MemoryStore() : undefined;
  const ref: { h?: Harness; service?: RequestHandler; refetching?: RequestHandler } = {};
  const h = await start({
    session,
    ...(store ? { sessionStore: store } : {}),
    // The emulator's clock stands still: a login's service session is recent on it.
    strategy: { enrich: ['secureInfo'], maxAuthAgeMs: 86_400_000 },
    routes: (a) => {
      const ok: RequestHandler = (_req, res) => void res.json({ ok: true });
      a.get('/low-risk', requireLowRisk({ loginUrl: '/login' }), ok);
      a.get('/identity', requireIdentity('EMAIL'), ok);
      a.get(
        '/refetching',
        (req, res, next) =>
          (ref.refetching ??= requireLowRisk({ maxAgeMs: 1, client: ref.h!.strategy.client }) as RequestHandler)(
            req,
            res,
            next,
          ),
        ok,
      );
      a.get(
        '/service',
        (req, res, next) =>
          (ref.service ??= requireServiceSession(ref.h!.strategy, { recheckAfterMs: 0 }) as RequestHandler)(
            req,
            res,
            next,
          ),
        ok,
      );
      a.get('/record', (req, res) => void res.json({ record: readLoginRecord(req) ?? null }));
    },
  });
  ref.h = h;
  return Object.assign(h, { store });
}

/** A logged-in browser and its stored session (as the store or the cookie holds it). */
interface Login {
  browser: ReturnType<Harness['browser']>;
  sid: string | null;
  stored: Stored;
}

async function login(h: App, email: string, risk: string): Promise<Login> {
  const browser = h.browser();
  const callback = await loginVia(h, browser, { email }, risk);
  expect(callback.status).toBe(302);
  if (!h.store) return { browser, sid: null, stored: sessionCookie<Stored>(callback) };
  const sid = (await browser.get('/me')).body.sessionID as string;
  return { browser, sid, stored: storedSession(h, sid) };
}

function sessionsOf(h: App): Record<string, string> {
  return (h.store as unknown as { sessions: Record<string, string> }).sessions;
}

function storedSession(h: App, sid: string): Stored {
  return JSON.parse(sessionsOf(h)[sid]!) as Stored;
}

/**
 * The browser of `who` with its session replaced by `session`: written into the store under its
 * session id, or carried in a cookie re-signed with the cookie key (the writer holds it).
 */
function withSession(h: App, who: Login, session: Rec): Login['browser'] {
  if (!h.store) return h.browser().set('cookie', signedSessionCookie(session));
  sessionsOf(h)[who.sid!] = JSON.stringify({ ...storedSession(h, who.sid!), ...session });
  return who.browser;
}

/** What the guards and the app see of a session whose record does not count. */
async function expectRefused(browser: Login['browser']): Promise<void> {
  for (const route of ['/low-risk', '/identity', '/refetching', '/service']) {
    const res = await browser.get(route).set(JSON_ACCEPT);
    expect(res.status, route).toBe(401);
    expect(res.body, route).toEqual(UNAUTHENTICATED);
  }
  // A browser is sent to the login page (the guard's loginUrl), not shown an error.
  const page = await browser.get('/low-risk').set('accept', 'text/html');
  expect(page.status).toBe(303);
  expect(page.headers.location).toBe('/login');
  expect((await browser.get('/record')).body).toEqual({ record: null });
  // Still logged in, as the session store says: only the package's record is refused.
  expect((await browser.get('/me')).status).toBe(200);
}

/** Each alteration of one member of `mine`'s record, `other` a second login of the same app (clean). */
type Alteration = (mine: Rec, other: Rec) => Rec;

/** The record without `member`. */
function without(record: Rec, member: string): Rec {
  const { [member]: _dropped, ...rest } = record;
  return rest;
}

const withRisk = (r: Rec, risk: Rec): Rec => ({ ...r, risk: { ...(r.risk as Rec), ...risk } });

const EVERY_SESSION: Record<string, Alteration> = {
  'v: another format version': (r) => ({ ...r, v: 3 }),
  "id: the other login's": (r, o) => ({ ...r, id: o.id }),
  'k: another key of this process': (r) => ({ ...r, k: OTHER_KEY.id }),
  'k: a key id this process does not have': (r) => ({ ...r, k: 'A'.repeat(11) }),
  "b: the other login's": (r, o) => ({ ...r, b: o.b }),
  'b: one character changed': (r) => ({
    ...r,
    b: `${String(r.b).slice(0, -1)}${String(r.b).endsWith('A') ? 'B' : 'A'}`,
  }),
  'b: one character short': (r) => ({ ...r, b: String(r.b).slice(0, -1) }),
  'b: one character long': (r) => ({ ...r, b: `${String(r.b)}A` }),
  'b: empty': (r) => ({ ...r, b: '' }),
  'b: as many bytes, fewer characters': (r) => ({ ...r, b: 'é'.repeat(11) }),
  'b: not a string': (r) => ({ ...r, b: 7 }),
  'b: left out': (r) => without(r, 'b'),
  'verified: an identity added': (r) => ({ ...r, verified: ['EMAIL', 'MOBILE'] }),
  'verified: emptied': (r) => ({ ...r, verified: [] }),
  'handoff: added': (r) => ({ ...r, handoff: true }),
  'handoff: added as 1': (r) => ({ ...r, handoff: 1 }),
  'handoff: added as false': (r) => ({ ...r, handoff: false }),
  'risk: its verdict made allow': (r) => withRisk(r, { action: 'allow' }),
  'risk: read a minute later': (r) => withRisk(r, { at: ((r.risk as Rec).at as number) + 60_000 }),
  "risk: the other login's": (r, o) => ({ ...r, risk: o.risk }),
  'risk: left out': (r) => without(r, 'risk'),
  'risk: null': (r) => ({ ...r, risk: null }),
  'via: added': (r) => ({ ...r, via: 'session' }),
  'via: added as another value': (r) => ({ ...r, via: 'token' }),
  'token: null': (r) => ({ ...r, token: null }),
  'a member this version does not write': (r) => ({ ...r, admin: true }),
};

/** Only where the record keeps them: the login's token (server-side sessions), sealed signals (cookies). */
const EXPRESS_ONLY: Record<string, Alteration> = {
  "token: the other login's": (r, o) => ({ ...r, token: o.token }),
  'token: left out': (r) => without(r, 'token'),
  'risk: clean signals put in': (r, o) => withRisk(r, { signals: (o.risk as Rec).signals }),
};
const COOKIE_ONLY: Record<string, Alteration> = {
  "token: the other login's put in": (r) => ({ ...r, token: 'a-token-of-another-login' }),
  "risk: the other login's sealed signals": (r, o) => withRisk(r, { s: (o.risk as Rec).s }),
};

// The binding as a function first: its cases run in milliseconds.
describe('the binding itself', () => {
  const key = registerRecordKey('a store secret for the pinned bindings');
  const record: UnboundStoredRecord = { v: 2, id: 'pinned@example.com', verified: ['EMAIL'] };
  const user = { id: 'pinned@example.com' };
  const express = { id: 'a-session-id', passport: { user } };
  const cookie = { passport: { user } };

  // Pinned: a record written by this version must read back after an upgrade (a change here
  // logs everyone out, or, worse, binds less than it did).
  it.each<[string, Rec, UnboundStoredRecord, string]>([
    ['a cookie session, a record by link', cookie, record, 'Gluptwd9meT1hd0wsmtNsQ'],
    ['a server-side session, a record by link', express, record, '905zYTWfuZuJn43afWZNRg'],
    [
      'a server-side session, every member set',
      express,
      {
        ...record,
        handoff: true,
        risk: { signals: { v: 1, f: '0' }, action: 'allow', at: 1 },
        token: 'the-token',
        via: 'session',
      },
      'IUPS_ZaqmsIJ_f3EAGHOAA',
    ],
  ])('%s: its binding is pinned', (_name, session, unbound, b) => {
    const written = bound(session, unbound, key);
    expect(written).toEqual({ ...unbound, k: key.id, b });
    expect(isBound(session, written, userText(session))).toBe(true);
  });

  it('a `k` and `b` the record had are replaced', () => {
    const written = bound(express, { ...record, k: 'old', b: 'old' } as UnboundStoredRecord, key);
    expect(written.k).toBe(key.id);
    expect(written.b).toBe('905zYTWfuZuJn43afWZNRg');
  });

  it('covers the session id and the user: the same record in another session, or for another user, is not bound', () => {
    const written = bound(express, record, key);
    expect(isBound({ ...express, id: 'another-session-id' }, written, userText(express))).toBe(false);
    // @fastify/session names it sessionId.
    expect(isBound({ sessionId: 'a-session-id', passport: { user } }, written, userText(express))).toBe(true);
    expect(isBound(express, written, JSON.stringify({ id: 'someone-else@example.com' }))).toBe(false);
    expect(isBound(express, { ...written, b: written.b.slice(1) }, userText(express))).toBe(false);
  });

  it("reads the user as Passport keeps it (passport.user) and as @fastify/passport does (passport's value)", () => {
    expect(sessionUser({ passport: { user } })).toEqual(user);
    expect(sessionUser({ passport: user })).toEqual(user);
    expect(sessionUser({ passport: 'alice' })).toBe('alice');
    expect(sessionUser({})).toBeUndefined();
    expect(userText({ passport: { user } })).toBe('{"id":"pinned@example.com"}');
    // No user: a text no record written at a login was bound to.
    expect(userText({})).toBe('undefined');
    expect(userText({ passport: {} })).toBe('{}');
  });

  it('a record naming a key this process does not have is no record, and says nothing while the process has keys', async () => {
    warnings.length = 0;
    const written = bound(express, record, key);
    expect(isBound(express, { ...written, k: 'B'.repeat(11) }, userText(express))).toBe(false);
    await settleWarnings();
    expect(warnings.filter((w) => w.code === 'OTPLESS_NO_RECORD_KEY')).toEqual([]);
  });
});

describe.each<SessionKind>(['express', 'cookie'])('a login record changed in the session (%s session)', (kind) => {
  const cases = { ...EVERY_SESSION, ...(kind === 'express' ? EXPRESS_ONLY : COOKIE_ONLY) };

  it('as written, it counts: the control the cases below change one member of', async () => {
    const h = await app(kind);
    const mine = await login(h, `control-${kind}@example.com`, 'vpn');
    const browser = withSession(h, mine, mine.stored);
    const res = await browser.get('/low-risk').set(JSON_ACCEPT);
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ error: { code: 'RISK_CHALLENGE' } });
    expect((await browser.get('/identity').set(JSON_ACCEPT)).status).toBe(200);
    expect((await browser.get('/record')).body.record).toMatchObject({ v: 2, id: `control-${kind}@example.com` });
    // Its members in another order: the same record (the binding lists them in its own order).
    const reordered = Object.fromEntries(Object.entries(mine.stored.otpless).reverse());
    const again = withSession(h, mine, { ...mine.stored, otpless: reordered });
    expect((await again.get('/identity').set(JSON_ACCEPT)).status).toBe(200);
  });

  it.each(Object.keys(cases))('%s: refused, never a 500 nor a pass', async (how) => {
    const h = await app(kind);
    const mine = await login(h, `mine-${kind}@example.com`, 'vpn');
    const other = await login(h, `other-${kind}@example.com`, 'clean');
    // Checked once as written, so a remembered check is there to be wrongly reused.
    expect((await mine.browser.get('/identity').set(JSON_ACCEPT)).status).toBe(200);
    const altered = cases[how]!(mine.stored.otpless, other.stored.otpless);
    await expectRefused(withSession(h, mine, { ...mine.stored, otpless: altered }));
  });
});

describe('the record bound to its session and user', () => {
  it("express-session: another login's record and user copied into a session of one's own: refused", async () => {
    const h = await app('express');
    const victim = await login(h, 'victim@example.com', 'clean');
    const writer = await login(h, 'writer@example.com', 'vpn');
    // The victim's record was checked (and remembered) in the victim's session.
    expect((await victim.browser.get('/low-risk').set(JSON_ACCEPT)).status).toBe(200);
    const copied = withSession(h, writer, { passport: victim.stored.passport, otpless: victim.stored.otpless });
    await expectRefused(copied);
    // The victim's own session still counts.
    expect((await victim.browser.get('/low-risk').set(JSON_ACCEPT)).status).toBe(200);
  });

  it.each<SessionKind>(['express', 'cookie'])("%s: the session's user changed in the store: refused", async (kind) => {
    const h = await app(kind);
    const mine = await login(h, `user-${kind}@example.com`, 'clean');
    expect((await mine.browser.get('/low-risk').set(JSON_ACCEPT)).status).toBe(200);
    const user = { ...(mine.stored.passport.user as Rec), id: 'someone-else@example.com' };
    await expectRefused(withSession(h, mine, { ...mine.stored, passport: { user } }));
  });
});

describe("the login's token is bound (express-session, where the record keeps it)", () => {
  it("a risky session given a clean login's token does not refetch that login's signals once stale", async () => {
    const h = await app('express');
    const clean = await login(h, 'clean-token@example.com', 'clean');
    const risky = await login(h, 'risky-token@example.com', 'vpn');
    await sleep(5); // older than the route's maxAgeMs of 1 ms: a lower bound, never a margin
    // As written: the stale signals are refetched with the session's own token, still risky.
    const own = await risky.browser.get('/refetching').set(JSON_ACCEPT);
    expect(own.status).toBe(403);
    expect(own.body).toEqual({ error: { code: 'RISK_CHALLENGE' } });
    expect((await clean.browser.get('/refetching').set(JSON_ACCEPT)).status).toBe(200);

    // The writer puts the clean login's token into the risky record, which then counts for nothing:
    // no refetch of the other login's (clean) signals, no pass.
    const now = storedSession(h, risky.sid!);
    const token = storedSession(h, clean.sid!).otpless.token;
    expect(typeof token).toBe('string');
    const res = await withSession(h, risky, { ...now, otpless: { ...now.otpless, token } })
      .get('/refetching')
      .set(JSON_ACCEPT);
    expect(res.status).toBe(401);
    expect(res.body).toEqual(UNAUTHENTICATED);
  });
});

describe('a login by the service session token: its `via` is bound', () => {
  // The emulator's clock moves only when told: its session ends when the test says so.
  const manual = useSharedEmulator({ clock: 'manual' });
  /** A login by link, then the service session's token POSTed from another browser of the site. */
  async function sessionLogin(h: App, email: string): Promise<Login> {
    const first = h.browser();
    await first.post('/auth/magic-link').set(JSON_ACCEPT).send({ email }).expect(200);
    expect((await first.get(await clickLink(lastLinkTo(h.emulator, email)))).status).toBe(302);
    const sessionToken = h.emulator
      .outbox()
      .filter((e) => e.to === email)
      .at(-1)!.sessionToken;
    const browser = h.browser();
    await browser.post('/auth/callback').set(JSON_ACCEPT).send({ sessionToken }).expect(302);
    const sid = (await browser.get('/me')).body.sessionID as string;
    return { browser, sid, stored: storedSession(h, sid) };
  }

  it('with `via` left out, a session the service ended does not pass as a login by link', async () => {
    const h = await app('express', manual.harness);
    const mine = await sessionLogin(h, 'via-session@example.com');
    expect(mine.stored.otpless.via).toBe('session');
    expect((await mine.browser.get('/service').set(JSON_ACCEPT)).status).toBe(200);
    h.emulator.advanceTime(30 * 86_400_000);
    // As written, the guard asks the service, which ended the session.
    const ended = await mine.browser.get('/service').set(JSON_ACCEPT);
    expect(ended.status).toBe(401);
    expect(ended.body).toEqual({ error: { code: 'SESSION_ENDED' } });
    // Left out, the record would read as a login by link, which the guard lets through: it is none.
    const browser = withSession(h, mine, { ...mine.stored, otpless: without(mine.stored.otpless, 'via') });
    const res = await browser.get('/service').set(JSON_ACCEPT);
    expect(res.status).toBe(401);
    expect(res.body).toEqual(UNAUTHENTICATED);
    await expectRefused(browser);
  });

  it("with `via` added to a login by link, the guard does not ask the service about the link's token", async () => {
    const h = await app('express', manual.harness);
    const mine = await login(h, 'via-link@example.com', 'clean');
    expect((await mine.browser.get('/service').set(JSON_ACCEPT)).status).toBe(200);
    const browser = withSession(h, mine, { ...mine.stored, otpless: { ...mine.stored.otpless, via: 'session' } });
    const res = await browser.get('/service').set(JSON_ACCEPT);
    // Not SESSION_ENDED (the service asked about a token that is no session token): no record.
    expect(res.body).toEqual(UNAUTHENTICATED);
  });
});

describe('members the keyed digest reads alike are refused by their type', () => {
  // `risk: null` reads like no risk, `token: null` like no token and `handoff: 1` like no
  // handoff to the digest: a record without them, given them, is still refused (and `risk: null`
  // once answered 500).
  it.each<[string, Rec]>([
    ['risk: null', { risk: null }],
    ['token: null', { token: null }],
    ['handoff: 1', { handoff: 1 }],
  ])('a login without signals given %s: refused (401), never a 500', async (_name, added) => {
    const h = await harness({
      routes: (a) => {
        a.get('/identity', requireIdentity('EMAIL'), (_req, res) => void res.json({ ok: true }));
        a.get('/record', (req, res) => void res.json({ record: readLoginRecord(req) ?? null }));
      },
    });
    const browser = h.browser();
    const callback = await loginVia(h, browser, { email: 'no-signals@example.com' });
    const stored = sessionCookie<Stored>(callback);
    expect(stored.otpless.risk).toBeUndefined();
    expect((await browser.get('/identity').set(JSON_ACCEPT)).status).toBe(200);
    const changed = h
      .browser()
      .set('cookie', signedSessionCookie({ ...stored, otpless: { ...stored.otpless, ...added } }));
    const res = await changed.get('/identity').set(JSON_ACCEPT);
    expect(res.status).toBe(401);
    expect(res.body).toEqual(UNAUTHENTICATED);
    expect((await changed.get('/record')).body).toEqual({ record: null });
  });
});
