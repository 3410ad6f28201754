// An identity the service does not mark verified counts only when the send went to that one
// destination. A send to {attacker's e-mail, victim's mobile} whose verify-code answer lists both
// without `verified` (the real service shares one request id across both channels) must not
// make the victim's number verified, nor its id.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { MagicLinkProfile } from '../../src/index.js';
import { startEmulator, type Emulator } from '../../src/emulator/index.js';
import { ENDPOINTS } from '../../src/wire/endpoints.js';
import { CLIENT, clickLink, lastLinkTo, startHarness, type Harness } from '../helpers/harness.js';

let emulator: Emulator;
let h: Harness;
let seen: MagicLinkProfile | undefined;
beforeAll(async () => {
  emulator = await startEmulator({ clients: [CLIENT], quiet: true });
  h = await startHarness({
    emulator,
    verify: async (profile) => {
      seen = profile;
      return { id: profile.id };
    },
    routes: (app) =>
      app.get('/custom', (req, res, next) =>
        h.passport.authenticate('magic-link', (err: unknown, user: unknown, info: { code?: string }, status: number) =>
          err ? next(err) : res.status(user ? 200 : status).json({ code: info?.code, user }),
        )(req, res, next),
      ),
  });
});
afterEach(() => {
  seen = undefined;
  emulator.clearFaults();
});
afterAll(async () => {
  await h.close();
  await emulator.close();
});

/** The service's verify-code answer for the link just clicked, with identities that carry no `verified`. */
function answerWithoutVerified(to: string, identities: Array<{ type: 'EMAIL' | 'MOBILE'; value: string }>): void {
  const entry = [...emulator.outbox()].reverse().find((e) => e.to === to);
  if (!entry) throw new Error(`no link to ${to}`);
  emulator.fault({
    path: ENDPOINTS.verifyCode.path,
    status: 200,
    body: {
      requestId: entry.requestId,
      message: 'SUCCESS',
      userDetails: {
        token: `token-${entry.requestId}`,
        status: 'SUCCESS',
        completedAt: 1_763_000_000_000,
        identities: identities.map((i) => ({
          identityType: i.type,
          identityValue: i.value,
          channel: 'MAGIC_LINK',
          methods: [i.type === 'EMAIL' ? 'EMAIL' : 'WHATSAPP'],
        })),
      },
    },
  });
}

describe('identities only the service vouched for', () => {
  it('a two-destination send: neither identity without `verified` counts, the login is refused', async () => {
    const browser = h.browser();
    const sent = await browser
      .post('/auth/magic-link')
      .set('accept', 'application/json')
      .send({ email: 'attacker@example.com', mobile: '+14155550123' });
    expect(sent.status).toBe(200);
    const callback = await clickLink(lastLinkTo(emulator, 'attacker@example.com'));
    answerWithoutVerified('attacker@example.com', [
      { type: 'EMAIL', value: 'attacker@example.com' },
      { type: 'MOBILE', value: '14155550123' },
    ]);
    const res = await browser.get(callback.replace('/auth/callback', '/custom'));
    expect(res.status).toBe(401);
    expect(res.body.code).toBe('NO_VERIFIED_IDENTITY');
    expect(seen).toBeUndefined();
    expect((await browser.get('/me')).status).toBe(401);
  });

  it('a one-destination send: that destination counts, another identity in the answer does not', async () => {
    const browser = h.browser();
    const sent = await browser
      .post('/auth/magic-link')
      .set('accept', 'application/json')
      .send({ email: 'only@example.com' });
    expect(sent.status).toBe(200);
    const callback = await clickLink(lastLinkTo(emulator, 'only@example.com'));
    answerWithoutVerified('only@example.com', [
      { type: 'MOBILE', value: '14155550124' },
      { type: 'EMAIL', value: 'only@example.com' },
    ]);
    const res = await browser.get(callback.replace('/auth/callback', '/custom'));
    expect(res.status).toBe(200);
    expect(seen?.id).toBe('only@example.com');
    expect(seen?.emails).toEqual([{ value: 'only@example.com', verified: true }]);
    expect(seen?.phoneNumbers).toEqual([{ value: '+14155550124', verified: false }]);
  });

  it('the login record lists only the vouched identity, so requireIdentity() for the other one refuses', async () => {
    const browser = h.browser();
    await browser.post('/auth/magic-link').set('accept', 'application/json').send({ email: 'record@example.com' });
    const callback = await clickLink(lastLinkTo(emulator, 'record@example.com'));
    answerWithoutVerified('record@example.com', [
      { type: 'MOBILE', value: '14155550126' },
      { type: 'EMAIL', value: 'record@example.com' },
    ]);
    expect((await browser.get(callback)).status).toBe(302);
    const me = await browser.get('/me');
    expect(me.body.record.verified).toEqual(['EMAIL']);
  });

  it('a one-destination send whose answer names only another identity: refused', async () => {
    const browser = h.browser();
    await browser.post('/auth/magic-link').set('accept', 'application/json').send({ mobile: '+14155550125' });
    const callback = await clickLink(lastLinkTo(emulator, '+14155550125'));
    answerWithoutVerified('14155550125', [{ type: 'EMAIL', value: 'someone@example.com' }]);
    const res = await browser.get(callback.replace('/auth/callback', '/custom'));
    expect(res.status).toBe(401);
    expect(res.body.code).toBe('NO_VERIFIED_IDENTITY');
  });
});
