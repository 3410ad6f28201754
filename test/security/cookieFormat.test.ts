// A cookie session written by this version must still be read by the next one: the record's
// format, the user binding's hash, the key derived for the sealed signals and the context they
// are sealed under are all part of what an upgrade must keep (or change on purpose, with a new
// format version). This cookie was written by a real login (harness cookie key, `vpn` risk).
import { describe, expect, it } from 'vitest';
import { readLoginRecord, requireLowRisk } from '../../src/index.js';
import { signedSessionCookie } from '../helpers/sessionCookie.js';
import { useSharedEmulator } from '../helpers/sharedEmulator.js';

const { harness } = useSharedEmulator();

const WRITTEN = {
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

  it('with its sealed signals in a record of another time, they read as malformed (the context is bound)', async () => {
    const h = await app();
    const moved = { ...WRITTEN, otpless: { ...WRITTEN.otpless, risk: { ...WRITTEN.otpless.risk, at: 1795633071189 } } };
    const browser = h.browser().set('cookie', signedSessionCookie(moved));
    expect((await browser.get('/record')).body.record.risk.signals).toEqual({ v: 1, f: '!' });
    expect((await browser.get('/guarded').set('accept', 'application/json')).body).toEqual({
      error: { code: 'RISK_BLOCKED' },
    });
  });
});
