import { describe, expect, it } from 'vitest';
import { clickLink, lastLinkTo, type Harness, type HarnessOptions } from '../helpers/harness.js';
import { harnessPool } from '../helpers/pool.js';

// Two browsers per test, as a person has them: the laptop that asks, the phone that opens the link.
const LAPTOP_UA =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Safari/537.36';
const PHONE_UA =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';

const pool = harnessPool();
const app = (options: HarnessOptions = {}) => pool.app(options);

/** The laptop asks for a link to `email`; returns the number it shows and the phone's callback path. */
async function askOnLaptop(h: Harness, email: string) {
  const laptop = h.browser().set('user-agent', LAPTOP_UA);
  const sent = await laptop.post('/auth/magic-link').set('accept', 'application/json').send({ email });
  expect(sent.status).toBe(200);
  const callback = await clickLink(lastLinkTo(h.emulator, email));
  return { laptop, match: sent.body.match as string, callback };
}

function phoneOf(h: Harness) {
  return h.browser().set('user-agent', PHONE_UA);
}

describe('cross-device handoff (the default)', () => {
  it('the phone approves with the number, and the laptop signs in', async () => {
    const h = await app();
    const { laptop, match, callback } = await askOnLaptop(h, 'handoff@example.com');
    expect(match).toMatch(/^[1-9]\d$/);
    expect((await laptop.get('/auth/status')).body).toEqual({
      status: 'pending',
      match,
      expiresAt: expect.any(String),
    });

    const phone = phoneOf(h);
    const page = await phone.get(callback);
    expect(page.status).toBe(200);
    expect(page.text).toContain('Approve sign-in on your computer?');
    expect(page.text).toContain('Chrome on Windows');
    // The page holds neither the number nor the code: the person brings the number.
    expect(page.text).not.toContain(`value="${match}"`);
    expect(page.text).not.toContain(new URL(callback, h.baseUrl).searchParams.get('code'));
    expect(page.headers['cache-control']).toBe('no-store');

    const approved = await phone.post(callback).type('form').send({ match });
    expect(approved.status).toBe(200);
    expect(approved.text).toContain('You are signed in on your computer');
    // The phone itself is not signed in.
    expect((await phone.get('/me')).status).toBe(401);

    expect((await laptop.get('/auth/status')).body.status).toBe('approved');
    const finished = await laptop.get('/auth/callback');
    expect(finished.status).toBe(302);
    expect(finished.headers.location).toBe('/me');
    const me = await laptop.get('/me');
    expect(me.status).toBe(200);
    expect(me.body.user.email).toBe('handoff@example.com');
    expect(me.body.record).toMatchObject({ handoff: true, verified: ['EMAIL'] });
    expect((await laptop.get('/auth/status')).body).toEqual({ status: 'none' });
  });

  it('hands the profile both devices, and the signals of the approving one', async () => {
    let seen: import('../../src/index.js').MagicLinkProfile | undefined;
    const h = await app({
      strategy: { enrich: ['secureInfo'] },
      verify: async (profile) => {
        seen = profile;
        return { id: profile.id };
      },
    });
    const { laptop, match, callback } = await askOnLaptop(h, 'devices@example.com');
    await phoneOf(h).post(callback).type('form').send({ match });
    expect((await laptop.get('/auth/callback')).status).toBe(302);
    expect(seen?.handoff).toEqual({
      approvedBy: { browser: 'Safari', os: 'iOS' },
      approvedAt: expect.any(Date),
      askedBy: { browser: 'Chrome', os: 'Windows' },
    });
    expect(seen?.risk?.action).toBe('allow');
  });

  it('a wrong number denies the flow for good, and the laptop is told', async () => {
    const h = await app();
    const { laptop, match, callback } = await askOnLaptop(h, 'wrong@example.com');
    const phone = phoneOf(h);
    const wrong = String(((Number(match) - 10 + 1) % 90) + 10);
    const denied = await phone.post(callback).type('form').send({ match: wrong });
    expect(denied.status).toBe(403);
    expect(denied.text).toContain('The number did not match');
    expect((await laptop.get('/auth/status')).body).toMatchObject({ status: 'denied' });
    // The right number afterwards changes nothing.
    const late = await phone.post(callback).type('form').send({ match });
    expect(late.status).toBe(410);
    const finished = await laptop.get('/auth/callback').set('accept', 'application/json');
    expect(finished.status).toBe(403);
    expect((await laptop.get('/me')).status).toBe(401);
  });

  it('"This wasn\'t me" denies the flow', async () => {
    const h = await app();
    const { laptop, callback } = await askOnLaptop(h, 'notme@example.com');
    const res = await phoneOf(h).post(callback).type('form').send({ decision: 'deny' });
    expect(res.status).toBe(200);
    expect(res.text).toContain('Nobody was signed in');
    expect((await laptop.get('/auth/status')).body.status).toBe('denied');
    expect((await laptop.get('/auth/callback')).status).toBe(403);
  });

  it('the laptop waiting on the callback before approval gets 409, then signs in after it', async () => {
    const h = await app();
    const { laptop, match, callback } = await askOnLaptop(h, 'early@example.com');
    expect((await laptop.get('/auth/callback')).status).toBe(409);
    await phoneOf(h).post(callback).type('form').send({ match });
    expect((await laptop.get('/auth/callback')).status).toBe(302);
  });

  it('an expired flow: the phone is refused, the laptop reads expired', async () => {
    const h = await app({ strategy: { expiry: 30 } });
    const { laptop, callback } = await askOnLaptop(h, 'expired@example.com');
    const realNow = Date.now;
    Date.now = () => realNow() + 31_000;
    try {
      expect((await laptop.get('/auth/status')).body.status).toBe('expired');
      expect((await phoneOf(h).get(callback)).status).toBe(401);
    } finally {
      Date.now = realNow;
    }
  });

  it('a replayed link after approval spends nothing and signs nobody in', async () => {
    const h = await app();
    const { laptop, match, callback } = await askOnLaptop(h, 'replay@example.com');
    const phone = phoneOf(h);
    await phone.post(callback).type('form').send({ match });
    expect((await phone.post(callback).type('form').send({ match })).status).toBe(410);
    expect((await phoneOf(h).get(callback)).status).toBe(401);
    expect((await laptop.get('/auth/callback')).status).toBe(302);
  });

  it('two laptop tabs finishing at once: one login, the other gets nothing', async () => {
    const h = await app();
    const { laptop, match, callback } = await askOnLaptop(h, 'tabs@example.com');
    await phoneOf(h).post(callback).type('form').send({ match });
    const [a, b] = await Promise.all([laptop.get('/auth/callback'), laptop.get('/auth/callback')]);
    expect([a.status, b.status].sort()).toEqual([302, 401]);
  });

  it('a laptop that logged out meanwhile is not signed in by the approval', async () => {
    const h = await app();
    const { laptop, match, callback } = await askOnLaptop(h, 'away@example.com');
    // Signing out regenerates the session: the pending send is gone with it.
    await laptop.post('/logout');
    await phoneOf(h).post(callback).type('form').send({ match });
    expect((await laptop.get('/auth/callback')).status).toBe(400);
    expect((await laptop.get('/me')).status).toBe(401);
  });

  it('the asking browser opening the link itself signs in at once, with no approval page', async () => {
    const h = await app();
    const { laptop, callback } = await askOnLaptop(h, 'same@example.com');
    const res = await laptop.get(callback);
    expect(res.status).toBe(302);
    expect((await laptop.get('/me')).body.record.handoff).toBeUndefined();
  });

  it('confirm mode: the same browser sees the confirm page, the phone the approval page', async () => {
    const h = await app({ strategy: { confirm: true } });
    const { laptop, match, callback } = await askOnLaptop(h, 'confirm@example.com');
    const phone = phoneOf(h);
    expect((await phone.get(callback)).text).toContain('Approve sign-in on your computer?');
    expect((await laptop.get(callback)).text).toContain('Confirm sign-in');
    await phone.post(callback).type('form').send({ match });
    expect((await laptop.get('/auth/callback')).status).toBe(302);
  });

  it('an approval posted from another site is refused', async () => {
    const h = await app();
    const { laptop, match, callback } = await askOnLaptop(h, 'csrf@example.com');
    const res = await phoneOf(h).post(callback).set('origin', 'https://evil.example').type('form').send({ match });
    expect(res.status).toBe(403);
    expect((await laptop.get('/auth/status')).body.status).toBe('pending');
  });

  it('approves without a body parser on the callback route', async () => {
    const h = await app({
      routes: () => undefined,
    });
    // The harness's POST route has parsers; a route without them reads the small form itself.
    h.app.post('/bare-callback', h.passport.authenticate(h.strategy.name, { successRedirect: '/me' }));
    const { laptop, match, callback } = await askOnLaptop(h, 'bare@example.com');
    const url = callback.replace('/auth/callback', '/bare-callback');
    const res = await phoneOf(h).post(url).type('form').send({ match });
    expect(res.text).toContain('You are signed in on your computer');
    expect((await laptop.get('/auth/callback')).status).toBe(302);
  });

  it("'refuse' answers 403 WRONG_BROWSER to the phone and spends nothing", async () => {
    const h = await app({ strategy: { crossDevice: 'refuse' } });
    const { laptop, callback } = await askOnLaptop(h, 'refuse@example.com');
    expect((await phoneOf(h).get(callback)).status).toBe(403);
    expect((await laptop.get(callback)).status).toBe(302);
  });

  it("'accept' signs in the browser that opened the link", async () => {
    const h = await app({ strategy: { crossDevice: 'accept' } });
    const { callback } = await askOnLaptop(h, 'accept@example.com');
    const phone = phoneOf(h);
    expect((await phone.get(callback)).status).toBe(302);
    expect((await phone.get('/me')).status).toBe(200);
  });

  it('booleans are no longer accepted for crossDevice', async () => {
    await expect(app({ strategy: { crossDevice: true as never } })).rejects.toThrow(
      "MagicLinkStrategy: options.crossDevice must be one of 'handoff', 'refuse', 'accept'",
    );
  });
});
