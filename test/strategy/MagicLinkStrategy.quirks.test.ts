// The login suite under each emulator quirk: what a user sees when an unknown of the real service
// goes the other way. Either the login still works (through the fallback binding), or it fails
// with a clear, named failure and one warning that says which assumption broke.
import { beforeAll, describe, expect, it } from 'vitest';
import type { Emulator, EmulatorQuirks } from '../../src/emulator/index.js';
import { clickLink, lastLinkTo, type Harness, type HarnessOptions } from '../helpers/harness.js';
import { useSharedEmulator } from '../helpers/sharedEmulator.js';
import { settleWarnings as settle, watchWarnings } from '../helpers/warnings.js';

const pool = useSharedEmulator();
let emulator: Emulator;
beforeAll(() => {
  emulator = pool.emulator();
});
const warnings = watchWarnings();

async function app(quirks: EmulatorQuirks, options: HarnessOptions = {}): Promise<Harness> {
  emulator.setQuirks(quirks);
  warnings.length = 0;
  return pool.harness(options);
}

async function send(h: Harness, email: string) {
  const laptop = h.browser();
  const sent = await laptop.post('/auth/magic-link').set('accept', 'application/json').send({ email });
  expect(sent.status).toBe(200);
  return { laptop, match: sent.body.match as string, callback: await clickLink(lastLinkTo(h.emulator, email)) };
}

describe('the login suite under each quirk', () => {
  it('none: same browser and handoff both sign in, and nothing is warned', async () => {
    const h = await app({});
    const same = await send(h, 'clean-same@example.com');
    expect((await same.laptop.get(same.callback)).status).toBe(302);
    const cross = await send(h, 'clean-cross@example.com');
    await h.browser().post(cross.callback).type('form').send({ match: cross.match });
    expect((await cross.laptop.get('/auth/callback')).status).toBe(302);
    await settle();
    expect(warnings).toEqual([]);
  });

  it('requestIdMismatch: a code naming no send of the flow is refused, same browser and handoff', async () => {
    const h = await app({ requestIdMismatch: true });
    const same = await send(h, 'rid-refused-same@example.com');
    expect((await same.laptop.get(same.callback)).status).toBe(403);
    expect((await same.laptop.get('/me')).status).toBe(401);
    const cross = await send(h, 'rid-refused-cross@example.com');
    const approval = await h.browser().post(cross.callback).type('form').send({ match: cross.match });
    expect(approval.status).toBe(401);
    expect((await cross.laptop.get('/auth/status')).body.status).toBe('pending');
  });

  it('requestIdMismatch with requestIdsDiffer: the flow binds, logins work, one warning names the broken assumption', async () => {
    const h = await app({ requestIdMismatch: true }, { strategy: { requestIdsDiffer: true } });
    const same = await send(h, 'rid-same@example.com');
    expect((await same.laptop.get(same.callback)).status).toBe(302);
    const cross = await send(h, 'rid-cross@example.com');
    await h.browser().post(cross.callback).type('form').send({ match: cross.match });
    expect((await cross.laptop.get('/auth/callback')).status).toBe(302);
    await settle();
    // Once per process: another test file may have warned first, so look for it only if it is new.
    for (const w of warnings) expect(w.code).toBe('OTPLESS_REQUEST_ID_DIFFERS');
  });

  it('stripRedirectQuery: same browser signs in through the request id; the phone gets a named 403', async () => {
    const h = await app({ stripRedirectQuery: true });
    const same = await send(h, 'strip-same@example.com');
    expect(same.callback).not.toContain('flow=');
    expect((await same.laptop.get(same.callback)).status).toBe(302);
    const cross = await send(h, 'strip-cross@example.com');
    const phone = await h.browser().get(cross.callback).set('accept', 'application/json');
    expect(phone.status).toBe(403);
    // The code was not spent on the phone: the laptop can still use it.
    expect((await cross.laptop.get(cross.callback)).status).toBe(302);
  });

  it('stripRedirectQuery + requestIdMismatch: neither binds, WRONG_BROWSER', async () => {
    const h = await app(
      { stripRedirectQuery: true, requestIdMismatch: true },
      {
        routes: (a) =>
          a.get('/custom', (req, res, next) =>
            h.passport.authenticate(
              'magic-link',
              (err: unknown, user: unknown, info: { code?: string }, status: number) =>
                err ? next(err) : res.status(user ? 200 : status).json({ code: info?.code }),
            )(req, res, next),
          ),
      },
    );
    const same = await send(h, 'neither@example.com');
    const res = await same.laptop.get(same.callback.replace('/auth/callback', '/custom'));
    expect(res.status).toBe(403);
    expect(res.body.code).toBe('WRONG_BROWSER');
  });

  it('separateRequestIds: one id per channel, logins work', async () => {
    const h = await app({ separateRequestIds: true });
    const same = await send(h, 'sep@example.com');
    expect((await same.laptop.get(same.callback)).status).toBe(302);
  });

  it('legacyVerifyShape: logins work and keep the verification time', async () => {
    let verifiedAt: Date | undefined;
    const h = await app(
      { legacyVerifyShape: true },
      {
        verify: async (profile) => {
          verifiedAt = profile.identities[0]?.verifiedAt;
          return { id: profile.id };
        },
      },
    );
    const same = await send(h, 'legacy@example.com');
    expect((await same.laptop.get(same.callback)).status).toBe(302);
    expect(verifiedAt).toBeInstanceOf(Date);
  });

  it('rejectVerifyTokenOnEnrich: without enrichment logins work; with it, a 502 and a warning, never a login without signals', async () => {
    const plain = await app({ rejectVerifyTokenOnEnrich: true });
    const a = await send(plain, 'enrich-off@example.com');
    expect((await a.laptop.get(a.callback)).status).toBe(302);

    const enriched = await app({ rejectVerifyTokenOnEnrich: true }, { strategy: { enrich: ['secureInfo'] } });
    const b = await send(enriched, 'enrich-on@example.com');
    const res = await b.laptop.get(b.callback);
    expect(res.status).toBe(502);
    expect(res.body.error.code).toBe('SERVICE_ERROR');
    expect((await b.laptop.get('/me')).status).toBe(401);
  });

  it('errorWith200: a used code is still a refusal (401), not a service error', async () => {
    const h = await app({ errorWith200: true }, { strategy: { crossDevice: 'accept' } });
    const same = await send(h, 'err200@example.com');
    expect((await same.laptop.get(same.callback)).status).toBe(302);
    const again = await h.browser().get(same.callback);
    expect(again.status).toBe(401);
  });

  it("noErrorCodeOn401: wrong credentials are the operator's 502 with a warning, not the visitor's", async () => {
    const h = await app({ noErrorCodeOn401: true }, { strategy: { clientSecret: 'not-the-secret' } });
    const res = await h
      .browser()
      .post('/auth/magic-link')
      .set('accept', 'application/json')
      .send({ email: 'creds@example.com' });
    expect(res.status).toBe(502);
    expect(res.body.error.code).toBe('SERVICE_ERROR');
    expect(JSON.stringify(res.body)).not.toContain('not-the-secret');
  });
});
