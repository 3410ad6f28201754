// A cookie session written by this version must still be read by the next one: the record's
// format, the keyed binding (its key derived from the client secret, what it covers), the key
// derived for the sealed signals and the context they are sealed under are all part of what an
// upgrade must keep (or change on purpose, with a new format version). This cookie was written
// by a real login (harness client secret and cookie key, `vpn` risk).
import { describe, expect, it } from 'vitest';
import { readLoginRecord, requireLowRisk } from '../../src/index.js';
import { signedSessionCookie } from '../helpers/sessionCookie.js';
import { useSharedEmulator } from '../helpers/sharedEmulator.js';

const { harness } = useSharedEmulator();

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

async function app() {
  return harness({
    routes: (a) => {
      a.get('/record', (req, res) => res.json({ record: readLoginRecord(req) ?? null }));
      a.get('/guarded', requireLowRisk(), (_req, res) => res.json({ ok: true }));
    },
  });
}

describe('a cookie session written by this version', () => {
  it('is read back: the same user, its record, its signals opened, and the guard judges them', async () => {
    const h = await app();
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
    const h = await app();
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
    const h = await app();
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
