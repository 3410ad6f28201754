import { describe, expect, it } from 'vitest';
import { clickLink, lastLinkTo, loginVia } from '../helpers/harness.js';
import { useSharedEmulator } from '../helpers/sharedEmulator.js';

const { harness } = useSharedEmulator();

describe('full login', () => {
  for (const session of ['cookie', 'express'] as const) {
    for (const expressVersion of [4, 5] as const) {
      it(`logs in by e-mail (${session} session, Express ${expressVersion})`, async () => {
        const h = await harness({ session, expressVersion });
        const browser = h.browser();
        const callback = await loginVia(h, browser, { email: 'ada@example.com' });
        expect(callback.status).toBe(302);
        expect(callback.headers.location).toBe('/me');
        expect(callback.headers['cache-control']).toBe('no-store');
        expect(callback.headers['referrer-policy']).toBe('no-referrer');

        const me = await browser.get('/me');
        expect(me.status).toBe(200);
        expect(me.body.user).toEqual({ id: 'ada@example.com', email: 'ada@example.com' });
        expect(me.body.record).toMatchObject({ v: 2, id: 'ada@example.com', verified: ['EMAIL'] });
      });
    }
  }

  it('logs in by mobile, with the number in E.164 everywhere', async () => {
    let seen: unknown;
    const h = await harness({
      verify: async (profile) => {
        seen = profile;
        return { id: profile.id };
      },
    });
    const browser = h.browser();
    const callback = await loginVia(h, browser, { mobile: '+1 415-555-0123' });
    expect(callback.status).toBe(302);
    const me = await browser.get('/me');
    expect(me.body.user).toEqual({ id: '+14155550123' });
    expect(seen).toMatchObject({
      provider: 'otpless',
      id: '+14155550123',
      phoneNumbers: [{ value: '+14155550123', verified: true }],
      identities: [{ type: 'MOBILE', value: '+14155550123', channel: 'MAGIC_LINK', verified: true }],
    });
    expect((seen as { identities: Array<{ verifiedAt: unknown }> }).identities[0]?.verifiedAt).toBeInstanceOf(Date);
  });

  it('changes the session id on login (session fixation) with express-session', async () => {
    const h = await harness({ session: 'express' });
    const browser = h.browser();
    const sent = await browser
      .post('/auth/magic-link')
      .set('accept', 'application/json')
      .send({ email: 'fix@example.com' });
    const before = /connect\.sid=([^;]+)/.exec(String(sent.headers['set-cookie']))?.[1];
    expect(before).toBeTruthy();
    const callback = await browser.get(await clickLink(lastLinkTo(h.emulator, 'fix@example.com')));
    const after = /connect\.sid=([^;]+)/.exec(String(callback.headers['set-cookie']))?.[1];
    expect(after).toBeTruthy();
    expect(after).not.toBe(before);
    expect((await browser.get('/me')).status).toBe(200);
  });

  it('keeps what it puts in a cookie small, with no token', async () => {
    const h = await harness({ strategy: { enrich: ['validateToken', 'secureInfo', 'userInfo'] } });
    const browser = h.browser();
    const callback = await loginVia(h, browser, { email: 'small@example.com' }, 'vpn');
    const cookie = String(callback.headers['set-cookie']).match(/sess=([^;]+)/)?.[1] ?? '';
    expect(cookie.length).toBeGreaterThan(0);
    expect(cookie.length).toBeLessThan(1024);
    const decoded = Buffer.from(cookie, 'base64').toString('utf8');
    expect(decoded).toContain('"otpless"');
    expect(decoded).not.toContain('token');
  });

  it('keeps the token server-side with express-session, for refetching signals', async () => {
    const h = await harness({ session: 'express', strategy: { enrich: ['secureInfo'] } });
    const browser = h.browser();
    await loginVia(h, browser, { email: 'server@example.com' });
    const me = await browser.get('/me');
    expect(typeof me.body.record.token).toBe('string');
    expect(me.body.record.risk).toMatchObject({ action: 'allow' });
  });

  it('logs out', async () => {
    const h = await harness();
    const browser = h.browser();
    await loginVia(h, browser, { email: 'bye@example.com' });
    expect((await browser.get('/me')).status).toBe(200);
    expect((await browser.post('/logout')).status).toBe(200);
    expect((await browser.get('/me')).status).toBe(401);
  });
});

describe('binding to the browser that asked', () => {
  it("refuses a code opened in another browser (403) without spending it, with crossDevice: 'refuse'", async () => {
    const h = await harness({ strategy: { crossDevice: 'refuse' } });
    const asker = h.browser();
    await asker.post('/auth/magic-link').set('accept', 'application/json').send({ email: 'victim@example.com' });
    const callback = await clickLink(lastLinkTo(h.emulator, 'victim@example.com'));

    const other = h.browser();
    const refused = await other.get(callback);
    expect(refused.status).toBe(403);
    expect((await other.get('/me')).status).toBe(401);

    // The code was not spent: the browser that asked can still use it.
    const ok = await asker.get(callback);
    expect(ok.status).toBe(302);
    expect((await asker.get('/me')).status).toBe(200);
  });

  it("accepts a code from another browser with crossDevice: 'accept'", async () => {
    const h = await harness({ strategy: { crossDevice: 'accept' } });
    await h.browser().post('/auth/magic-link').set('accept', 'application/json').send({ email: 'phone@example.com' });
    const callback = await clickLink(lastLinkTo(h.emulator, 'phone@example.com'));
    const other = h.browser();
    expect((await other.get(callback)).status).toBe(302);
    expect((await other.get('/me')).body.user.id).toBe('phone@example.com');
  });

  it('refuses a replayed code: 410 page (handoff), 403 (refuse), 401 (used, accept)', async () => {
    const handoff = await harness();
    const first = handoff.browser();
    await first.post('/auth/magic-link').set('accept', 'application/json').send({ email: 'replay0@example.com' });
    const cb0 = await clickLink(lastLinkTo(handoff.emulator, 'replay0@example.com'));
    expect((await first.get(cb0)).status).toBe(302);
    // The flow ended with the login: any browser opening the link again is refused.
    const over = await handoff.browser().get(cb0);
    expect(over.status).toBe(401);
    expect(over.text).not.toContain('Approve');
    expect((await first.get(cb0)).status).toBe(401);

    const bound = await harness({ strategy: { crossDevice: 'refuse' } });
    const browser = bound.browser();
    await browser.post('/auth/magic-link').set('accept', 'application/json').send({ email: 'replay@example.com' });
    const callback = await clickLink(lastLinkTo(bound.emulator, 'replay@example.com'));
    expect((await browser.get(callback)).status).toBe(302);
    expect((await bound.browser().get(callback)).status).toBe(403);
    expect((await browser.get(callback)).status).toBe(403);

    const loose = await harness({ strategy: { crossDevice: 'accept' } });
    const b2 = loose.browser();
    await b2.post('/auth/magic-link').set('accept', 'application/json').send({ email: 'replay2@example.com' });
    const cb2 = await clickLink(lastLinkTo(loose.emulator, 'replay2@example.com'));
    expect((await b2.get(cb2)).status).toBe(302);
    const again = await loose.browser().get(cb2);
    expect(again.status).toBe(401);
  });

  it('refuses an expired code with 401', async () => {
    const h = await harness({ strategy: { expiry: 60 } });
    const browser = h.browser();
    await browser.post('/auth/magic-link').set('accept', 'application/json').send({ email: 'late@example.com' });
    const callback = await clickLink(lastLinkTo(h.emulator, 'late@example.com'));
    h.emulator.advanceTime(61_000);
    const res = await browser.get(callback);
    expect(res.status).toBe(401);
    expect((await browser.get('/me')).status).toBe(401);
  });

  it('refuses an unknown code with 401 when a link is pending', async () => {
    const h = await harness();
    const browser = h.browser();
    await browser.post('/auth/magic-link').set('accept', 'application/json').send({ email: 'guess@example.com' });
    const res = await browser.get('/auth/callback?code=not-a-real-code');
    expect(res.status).toBe(401);
  });
});

describe('link scanners (confirm: true)', () => {
  it('GET shows a button and spends nothing; the POST logs in', async () => {
    const h = await harness({ strategy: { confirm: true } });
    const browser = h.browser();
    await browser.post('/auth/magic-link').set('accept', 'application/json').send({ email: 'scan@example.com' });
    const callback = await clickLink(lastLinkTo(h.emulator, 'scan@example.com'));

    // A mail scanner opens the link first, more than once.
    const scanned = await h.browser().get(callback);
    expect(scanned.status).toBe(200);
    expect(scanned.headers['content-type']).toMatch(/text\/html/);
    expect(scanned.text).toContain('<form method="post">');
    expect(scanned.headers['cache-control']).toBe('no-store');
    expect((await browser.get(callback)).status).toBe(200);

    const code = new URLSearchParams(callback.split('?')[1]).get('code') ?? '';
    const posted = await browser.post('/auth/callback').type('form').send({ code });
    expect(posted.status).toBe(302);
    expect((await browser.get('/me')).body.user.id).toBe('scan@example.com');
  });

  it('a HEAD request (scanners send them) spends nothing either', async () => {
    const h = await harness({ strategy: { confirm: true, crossDevice: 'accept' } });
    const browser = h.browser();
    await browser.post('/auth/magic-link').set('accept', 'application/json').send({ email: 'head@example.com' });
    const callback = await clickLink(lastLinkTo(h.emulator, 'head@example.com'));
    const scanner = h.browser();
    expect((await scanner.head(callback)).status).toBe(200);
    expect((await scanner.get('/me')).status).toBe(401);
    const code = new URLSearchParams(callback.split('?')[1]).get('code') ?? '';
    expect((await browser.post('/auth/callback').type('form').send({ code })).status).toBe(302);
    expect((await browser.get('/me')).body.user.id).toBe('head@example.com');
  });

  it('the confirm page escapes what it is given', async () => {
    const h = await harness({ strategy: { confirm: true, crossDevice: 'accept' } });
    const res = await h.browser().get('/auth/callback?code=%22%3E%3Cscript%3Ealert(1)%3C/script%3E');
    expect(res.status).toBe(200);
    expect(res.text).not.toContain('<script>');
  });
});
