// Finding 3: only identities the service verified (or the destination this browser's send went
// to) count; a login with none is refused with its own code; profile.id is a verified identity.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { MagicLinkProfile } from '../../src/index.js';
import { startEmulator, type Emulator } from '../../src/emulator/index.js';
import { CLIENT, clickLink, lastLinkTo, loginVia, startHarness, type Harness } from '../helpers/harness.js';

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
          err ? next(err) : res.status(user ? 200 : status).json({ code: info?.code }),
        )(req, res, next),
      ),
  });
});
afterEach(() => {
  seen = undefined;
});
afterAll(async () => {
  await h.close();
  await emulator.close();
});

describe('only verified identities', () => {
  it('a login whose only identity the service did not verify is refused: NO_VERIFIED_IDENTITY', async () => {
    const browser = h.browser();
    await browser.post('/auth/magic-link').set('accept', 'application/json').send({ email: 'unverified@example.com' });
    const callback = await clickLink(lastLinkTo(emulator, 'unverified@example.com'));
    emulator.nextLogin({ unverified: ['EMAIL'] });
    const res = await browser.get(callback.replace('/auth/callback', '/custom'));
    expect(res.status).toBe(401);
    expect(res.body.code).toBe('NO_VERIFIED_IDENTITY');
    expect(seen).toBeUndefined();
    expect((await browser.get('/me')).status).toBe(401);
  });

  it('profile.id is the verified identity, and the service userId a field of its own', async () => {
    expect((await loginVia(h, h.browser(), { email: 'id@example.com' })).status).toBe(302);
    expect(seen?.id).toBe('id@example.com');
    const token = emulator.issueToken({ email: 'id2@example.com' });
    await h.browser().post('/auth/callback').set('origin', h.baseUrl).type('form').send({ token });
    expect(seen?.id).toBe('id2@example.com');
    expect(seen?.userId).toEqual(expect.any(String));
    expect(seen?.userId).not.toBe(seen?.id);
  });

  it('an identity the service marks unverified is left out of the login record the guards read', async () => {
    const browser = h.browser();
    await browser
      .post('/auth/magic-link')
      .set('accept', 'application/json')
      .send({ email: 'both@example.com', mobile: '+14155550177' });
    const callback = await clickLink(lastLinkTo(emulator, '+14155550177'));
    emulator.nextLogin({ unverified: ['EMAIL'] });
    expect((await browser.get(callback)).status).toBe(302);
    const me = await browser.get('/me');
    expect(me.body.record.verified).toEqual(['MOBILE']);
    expect(seen?.id).toBe('+14155550177');
    expect(seen?.emails.filter((e) => e.verified)).toEqual([]);
  });
});
