import type { RequestHandler } from 'express';
import { describe, expect, it } from 'vitest';
import { readLoginRecord, requireLowRisk, sessionCompat } from '../../src/index.js';
import type { CompactSignals } from '../../src/risk/index.js';
import { readCheckedLogin } from '../../src/session/checkedLogins.js';
import { bound } from '../../src/session/recordBinding.js';
import { registerRecordKey } from '../../src/session/recordKeys.js';
import { sealContext } from '../../src/session/recordFormat.js';
import type { StoredLoginRecord, UnboundStoredRecord } from '../../src/session/recordFormat.js';
import { sealValue, setSealSecrets } from '../../src/session/sealedSignals.js';
import { loginVia } from '../helpers/harness.js';
import { useSharedEmulator } from '../helpers/sharedEmulator.js';

// The guards' check of a login record (checkedLogins.ts): what it accepts, and what it remembers.
// A check is remembered by the record's keyed digest and counts again only while the session
// holds, by value, the same record and user under the same session id, and, when the record's
// signals are sealed (a cookie session), for the very list of secrets they were opened with.

const { harness } = useSharedEmulator();
const JSON_ACCEPT = { accept: 'application/json' };

/** The harness's cookie-session key: by default also the secret that seals the signals. */
const COOKIE_KEY = 'harness-cookie-key';
const OTHER = 'a-secret-that-sealed-nothing';

// The check itself, called as the guards call it, on sessions shaped as each session library
// hands them over (the binding made with a key of this process, as a login makes it).

const key = registerRecordKey('a store secret for the checked-login tests');
const USER = { id: 'checked@example.com' };
const RECORD: UnboundStoredRecord = { v: 2, id: 'checked@example.com', verified: ['EMAIL'] };
const SIGNALS: CompactSignals = { v: 1, f: '0#n000000#0#0000' };

type Session = Record<string, unknown>;

/** A server-side session (express-session) holding `record`, bound as a login binds it. */
function serverSession(record: UnboundStoredRecord = RECORD, id = 'sid-1'): Session {
  const session: Session = { id, passport: { user: { ...USER } } };
  session.otpless = bound(session, record, key);
  return session;
}

/** A cookie session whose record's signals are sealed under `secrets[0]`, for a request given `secrets`. */
function cookieRequest(secrets: readonly string[]): { session: Session } {
  const req = { session: { passport: { user: { ...USER } } } as Session };
  setSealSecrets(req, secrets);
  const at = 1_700_000_000_000;
  const risk = { action: 'allow', at, s: sealValue(req, SIGNALS, sealContext(RECORD.id, at)) };
  req.session.otpless = bound(req.session, { ...RECORD, risk } as UnboundStoredRecord, key);
  return req;
}

/** A request for `session`, its seal secrets `secrets` (when given). */
function requestFor(session: Session, secrets?: readonly string[]): { session: Session } {
  const req = { session };
  if (secrets) setSealSecrets(req, secrets);
  return req;
}

/** A copy of a session as a store gives it back on the next request: new objects, same JSON. */
const reloaded = (session: Session): Session => JSON.parse(JSON.stringify(session)) as Session;

describe('readCheckedLogin()', () => {
  it('gives none without a session, without a record, or with a record that is no object', () => {
    expect(readCheckedLogin({})).toBeUndefined();
    expect(readCheckedLogin({ session: undefined })).toBeUndefined();
    expect(readCheckedLogin({ session: 'a session' })).toBeUndefined();
    const { otpless: _record, ...empty } = serverSession();
    expect(readCheckedLogin({ session: empty })).toBeUndefined();
    for (const otpless of [null, 0, '', 'otpless', 7, true, []]) {
      expect(readCheckedLogin({ session: { ...empty, otpless } }), String(otpless)).toBeUndefined();
    }
  });

  it('accepts a record as the package writes it, with each optional member', () => {
    const full: UnboundStoredRecord = {
      ...RECORD,
      handoff: true,
      risk: { signals: SIGNALS, action: 'allow', at: 1 },
      token: 'the-token',
      via: 'session',
    };
    const login = readCheckedLogin(requestFor(serverSession(full)));
    expect(login?.record).toEqual({ ...bound(serverSession(full), full, key) });
    for (const member of ['handoff', 'risk', 'token', 'via'] as const) {
      const only = { ...RECORD, [member]: full[member] } as UnboundStoredRecord;
      expect(readCheckedLogin(requestFor(serverSession(only)))?.record, member).toMatchObject({
        [member]: full[member],
      });
    }
  });

  // Bound with the key (as no writer of the store can), yet not of the shape this version writes.
  it.each<[string, Record<string, unknown>]>([
    ['another format version', { v: 3 }],
    ['an id that is no string', { id: 7 }],
    ['verified types that are no list', { verified: 'EMAIL' }],
    ['handoff: false', { handoff: false }],
    ['handoff: 1', { handoff: 1 }],
    ['risk: null', { risk: null }],
    ['risk: a string', { risk: 'allow' }],
    ['token: null', { token: null }],
    ['token: a number', { token: 7 }],
    ['via: another value', { via: 'token' }],
    ['a member this version does not write', { admin: true }],
  ])('refuses a bound record of another shape: %s', (_name, change) => {
    const session = serverSession({ ...RECORD, ...change } as UnboundStoredRecord);
    expect(readCheckedLogin(requestFor(session))).toBeUndefined();
  });

  it('refuses a bound record whose binding was taken out', () => {
    const session = serverSession();
    const { b: _b, ...unbound } = session.otpless as StoredLoginRecord;
    expect(readCheckedLogin(requestFor({ ...session, otpless: unbound }))).toBeUndefined();
  });

  it('remembers a check: the same session, or an equal one reloaded from the store, gets it again', () => {
    const session = serverSession();
    const first = readCheckedLogin(requestFor(session));
    expect(first).toBeDefined();
    expect(readCheckedLogin(requestFor(session))).toBe(first);
    expect(readCheckedLogin(requestFor(reloaded(session)))).toBe(first);
    // Signals that are not sealed need no secret: any list (or none) gets the same check.
    expect(readCheckedLogin(requestFor(reloaded(session), ['some-secret']))).toBe(first);
    // The verdicts kept with it stay with it.
    first!.verdicts.set('a guard', { action: 'allow', reasons: [] });
    expect(readCheckedLogin(requestFor(reloaded(session)))?.verdicts.get('a guard')).toEqual({
      action: 'allow',
      reasons: [],
    });
  });

  it('a remembered check never counts in another session, for another user, or for a record changed since', () => {
    const session = serverSession();
    expect(readCheckedLogin(requestFor(session))).toBeDefined();
    // The same record and user in another server-side session (copied by a store writer).
    expect(readCheckedLogin(requestFor({ ...reloaded(session), id: 'sid-2' }))).toBeUndefined();
    expect(
      readCheckedLogin(requestFor({ ...reloaded(session), passport: { user: { id: 'mallory' } } })),
    ).toBeUndefined();
    const changed = reloaded(session);
    (changed.otpless as StoredLoginRecord).verified.push('MOBILE');
    expect(readCheckedLogin(requestFor(changed))).toBeUndefined();
    // The session as written still counts.
    expect(readCheckedLogin(requestFor(reloaded(session)))).toBeDefined();
  });

  it('sealed signals: opened with the list given, remembered for that very list only', () => {
    const list = Object.freeze(['seal-secret']);
    const req = cookieRequest(list);
    const first = readCheckedLogin(req);
    expect(first?.record.risk?.signals).toEqual(SIGNALS);
    expect(readCheckedLogin(requestFor(reloaded(req.session), list))).toBe(first);
    // An equal list of another setup: checked again (same answer).
    const again = readCheckedLogin(requestFor(reloaded(req.session), ['seal-secret']));
    expect(again).not.toBe(first);
    expect(again?.record.risk?.signals).toEqual(SIGNALS);
    // A list that cannot open them: malformed, never clean, and never the remembered opening.
    const other = Object.freeze(['another-secret']);
    expect(readCheckedLogin(requestFor(reloaded(req.session), other))?.record.risk?.signals).toEqual({ v: 1, f: '!' });
    expect(readCheckedLogin(requestFor(reloaded(req.session), other))?.record.risk?.signals).toEqual({ v: 1, f: '!' });
    // No secrets at all: the same.
    expect(readCheckedLogin(requestFor(reloaded(req.session)))?.record.risk?.signals).toEqual({ v: 1, f: '!' });
    // The list that opens them, longer: opened again.
    const longer = Object.freeze(['another-secret', 'seal-secret']);
    expect(readCheckedLogin(requestFor(reloaded(req.session), longer))?.record.risk?.signals).toEqual(SIGNALS);
    expect(readCheckedLogin(requestFor(reloaded(req.session), other))?.record.risk?.signals).toEqual({ v: 1, f: '!' });
  });

  it('sealed signals that were null open as null', () => {
    const req = { session: { passport: { user: { ...USER } } } as Session };
    setSealSecrets(req, ['seal-secret']);
    const risk = { action: 'block', at: 5, s: sealValue(req, null, sealContext(RECORD.id, 5)) };
    req.session.otpless = bound(req.session, { ...RECORD, risk } as UnboundStoredRecord, key);
    expect(readCheckedLogin(req)?.record.risk).toEqual({ signals: null, action: 'block', at: 5 });
  });
});

describe('readLoginRecord() hands out copies', () => {
  it('changing what it gave changes neither the session nor the next read', () => {
    const withRisk: UnboundStoredRecord = { ...RECORD, risk: { signals: { ...SIGNALS }, action: 'allow', at: 1 } };
    const session = serverSession(withRisk);
    const read = readLoginRecord(requestFor(session))!;
    const expected = JSON.parse(JSON.stringify(session.otpless)) as unknown;
    expect(read).toEqual(expected);
    read.verified.push('MOBILE');
    read.risk!.signals!.f = 'changed';
    read.risk!.action = 'block';
    read.id = 'mallory';
    expect(readLoginRecord(requestFor(session))).toEqual(expected);
    expect(session.otpless).toEqual(expected);
  });

  it('a record without signals, or with null signals, is copied as it is', () => {
    const plain = readLoginRecord(requestFor(serverSession()))!;
    expect(Object.keys(plain)).not.toContain('risk');
    const none: UnboundStoredRecord = { ...RECORD, risk: { signals: null, action: 'block', at: 1 } };
    expect(readLoginRecord(requestFor(serverSession(none)))!.risk).toEqual({ signals: null, action: 'block', at: 1 });
  });
});

// The same, through real logins and guards.
describe('a remembered check counts for the exact list of seal secrets it was made with (cookie session)', () => {
  it("each route's list opens the signals afresh: a list without the sealing secret never passes, one with it does", async () => {
    const h = await harness({
      strategy: { enrich: ['secureInfo'] },
      routes: (app) => {
        const ok: RequestHandler = (_req, res) => void res.json({ ok: true });
        const record: RequestHandler = (req, res) => void res.json({ record: readLoginRecord(req) ?? null });
        // Each route gives the request a list of its own (the last sessionCompat() wins).
        const lists: Record<string, string | string[]> = {
          other: OTHER,
          'other-then-key': [OTHER, COOKIE_KEY],
          'key-then-other': [COOKIE_KEY, OTHER],
          key: COOKIE_KEY,
        };
        app.get('/guarded', requireLowRisk(), ok);
        app.get('/record', record);
        for (const [name, secret] of Object.entries(lists)) {
          const compat = sessionCompat({ secret });
          app.get(`/guarded/${name}`, compat, requireLowRisk(), ok);
          app.get(`/record/${name}`, compat, record);
        }
      },
    });
    const browser = h.browser();
    expect((await loginVia(h, browser, { email: 'lists@example.com' }, 'clean')).status).toBe(302);
    const get = async (path: string) => browser.get(path).set(JSON_ACCEPT);
    const passes = async (path: string) => expect((await get(path)).body, path).toEqual({ ok: true });
    const blocked = async (path: string) => {
      const res = await get(path);
      expect(res.status, path).toBe(403);
      expect(res.body, path).toEqual({ error: { code: 'RISK_BLOCKED' } });
    };

    // Opened with the cookie's own list, and remembered for it.
    await passes('/guarded');
    // A list that cannot open them: the signals read as malformed, and that check is remembered too...
    await blocked('/guarded/other');
    expect((await get('/record/other')).body.record.risk.signals).toEqual({ v: 1, f: '!' });
    await blocked('/guarded/other');
    // ...but counts for no other list: a longer one that adds the sealing secret opens them.
    await passes('/guarded/other-then-key');
    await blocked('/guarded/other');
    await passes('/guarded/key-then-other');
    // The same secrets in a list of another setup: checked again, and they open.
    await passes('/guarded/key');
    await blocked('/guarded/other');
    await passes('/guarded');
    const opened = (await get('/record')).body.record.risk.signals;
    expect(opened).toMatchObject({ v: 1 });
    expect(opened.f).not.toBe('!');
    expect((await get('/record/other-then-key')).body.record.risk.signals).toEqual(opened);
  });
});
