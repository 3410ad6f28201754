// Quirks: the emulator behaving as each unknown of the real service would if it went the other way.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { QUIRK_NAMES, startEmulator, type Emulator } from '../../src/emulator/index.js';
import {
  click,
  codeOf,
  expectErrorShape,
  lastEntry,
  logIn,
  postJson,
  secureInfo,
  sendLink,
  sessionDetails,
  userInfo,
  validateToken,
  verify,
} from './helpers.js';

let emulator: Emulator;
beforeAll(async () => {
  emulator = await startEmulator();
});
beforeEach(() => emulator.reset());
afterAll(() => emulator.close());

describe('setting quirks', () => {
  it('starts with none, takes them at start, and reports the ones in force', async () => {
    expect(emulator.quirks()).toEqual({});
    const quirky = await startEmulator({ quirks: { errorWith200: true, legacyVerifyShape: false } });
    try {
      expect(quirky.quirks()).toEqual({ errorWith200: true });
      expect((await validateToken(quirky, 'nope')).status).toBe(200);
    } finally {
      await quirky.close();
    }
  });

  it('rejects an unknown quirk or a non-boolean value with a TypeError naming it', async () => {
    await expect(startEmulator({ quirks: { bogusQuirk: true } as never })).rejects.toThrow(
      /unknown quirk "bogusQuirk"/,
    );
    await expect(startEmulator({ quirks: { errorWith200: 'yes' } as never })).rejects.toThrow(/errorWith200/);
    await expect(startEmulator({ quirks: [] as never })).rejects.toThrow(TypeError);
    expect(() => emulator.setQuirks({ nope: true } as never)).toThrow(/unknown quirk "nope"/);
    expect(QUIRK_NAMES).toHaveLength(11);
  });

  it('setQuirks replaces the whole set at runtime; reset() restores the ones given at start', async () => {
    emulator.setQuirks({ errorWith200: true, noErrorCodeOn401: true });
    expect(emulator.quirks()).toEqual({ errorWith200: true, noErrorCodeOn401: true });
    expect((await validateToken(emulator, 'nope')).status).toBe(200);
    emulator.setQuirks({ noErrorCodeOn401: true });
    expect((await validateToken(emulator, 'nope')).status).toBe(400);
    emulator.reset();
    expect(emulator.quirks()).toEqual({});

    const started = await startEmulator({ quirks: { separateRequestIds: true } });
    try {
      started.setQuirks({});
      started.reset();
      expect(started.quirks()).toEqual({ separateRequestIds: true });
    } finally {
      await started.close();
    }
  });
});

describe('requestIdMismatch', () => {
  it("makes verify-code's requestId differ from the send's request id", async () => {
    emulator.setQuirks({ requestIdMismatch: true });
    const { body } = await sendLink(emulator, { email: 'a@example.com' });
    const verified = await verify(emulator, codeOf(await click(lastEntry(emulator).link)));
    expect(verified.status).toBe(200);
    expect(verified.body.requestId).toEqual(expect.any(String));
    expect(verified.body.requestId).not.toBe(body.requestIds[0].value);
    expect(verified.body.requestId).not.toBe(lastEntry(emulator).requestId);
  });
});

describe('stripRedirectQuery', () => {
  it('redirects to redirect_uri without its query string and fragment, with only ?code=', async () => {
    emulator.setQuirks({ stripRedirectQuery: true });
    await sendLink(emulator, {
      email: 'a@example.com',
      redirect_uri: 'https://app.test/cb?state=abc&next=%2Fhome#top',
    });
    const response = await click(lastEntry(emulator).link);
    expect(response.status).toBe(302);
    expect(response.headers.get('location')).toMatch(/^https:\/\/app\.test\/cb\?code=[\w-]{20,}$/);
    expect((await verify(emulator, codeOf(response))).status).toBe(200);
  });

  it('is off by default: the query is kept', async () => {
    await sendLink(emulator, { email: 'a@example.com', redirect_uri: 'https://app.test/cb?state=abc' });
    const location = (await click(lastEntry(emulator).link)).headers.get('location') ?? '';
    expect(new URL(location).searchParams.get('state')).toBe('abc');
  });
});

describe('rejectVerifyTokenOnEnrich', () => {
  it("refuses verify-code's token on validate-token, secure-info and userInfo with 400 7114", async () => {
    emulator.setQuirks({ rejectVerifyTokenOnEnrich: true });
    const { token, entry } = await logIn(emulator);
    for (const call of [validateToken, secureInfo, userInfo]) {
      const { status, body } = await call(emulator, token);
      expect(status).toBe(400);
      expectErrorShape(body, '7114');
    }
    // The session token still works: the quirk is about the verify token only.
    expect((await sessionDetails(emulator, entry.sessionToken)).status).toBe(200);
  });

  it('still accepts tokens from issueToken (the frontend SDK path)', async () => {
    emulator.setQuirks({ rejectVerifyTokenOnEnrich: true });
    const token = emulator.issueToken({ email: 'sdk@example.com' });
    for (const call of [validateToken, secureInfo, userInfo]) expect((await call(emulator, token)).status).toBe(200);
  });

  it('is off by default', async () => {
    const { token } = await logIn(emulator);
    expect((await validateToken(emulator, token)).status).toBe(200);
  });
});

describe('legacyVerifyShape', () => {
  it('answers verify-code in the older shape: timestamp, ISO verifiedAt and name, full network', async () => {
    emulator.setQuirks({ legacyVerifyShape: true });
    const { verified } = await logIn(emulator, { email: 'jane.doe@example.com' });
    const details = verified.userDetails;
    expect(details).not.toHaveProperty('completedAt');
    expect(details.timestamp).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    expect(details.identities).toEqual([
      {
        identityType: 'EMAIL',
        identityValue: 'jane.doe@example.com',
        channel: 'MAGIC_LINK',
        methods: ['EMAIL'],
        name: 'Jane Doe',
        verified: true,
        verifiedAt: details.timestamp,
      },
    ]);
    expect(details.network).toMatchObject({
      ip: '127.0.0.1',
      timezone: expect.any(String),
      ipLocation: { country: { code: 'IN' } },
    });
    expect(details).toMatchObject({ token: expect.any(String), status: 'SUCCESS' });
  });
});

describe('errorWith200', () => {
  it('answers every error with HTTP 200 and the error body', async () => {
    emulator.setQuirks({ errorWith200: true });
    const cases = [
      { response: await validateToken(emulator, 'nope'), errorCode: '7114' },
      { response: await validateToken(emulator, 'nope', { clientId: 'x', clientSecret: 'y' }), errorCode: '7002' },
      { response: await sendLink(emulator, { email: 'not-an-address' }), errorCode: '7104' },
      { response: await postJson(`${emulator.authUrl}/auth/v1/verify/code`, '{broken'), errorCode: 'EMU-400' },
    ];
    for (const { response, errorCode } of cases) {
      expect(response.status, errorCode).toBe(200);
      expectErrorShape(response.body, errorCode);
    }
    const missing = await fetch(`${emulator.userAuthUrl}/no/such/path`);
    expect(missing.status).toBe(200);
    expectErrorShape(await missing.json(), 'EMU-404');
  });
});

describe('noErrorCodeOn401', () => {
  it('leaves errorCode out of every 401 and keeps it on other statuses', async () => {
    emulator.setQuirks({ noErrorCodeOn401: true });
    const wrong = await validateToken(emulator, 'nope', { clientId: 'x', clientSecret: 'y' });
    expect(wrong.status).toBe(401);
    expect(wrong.body).toEqual({ message: 'Access blocked', description: 'Authorization error: Invalid credentials' });

    const token = emulator.issueToken();
    emulator.advanceTime(24 * 60 * 60 * 1000);
    const expired = await validateToken(emulator, token);
    expect(expired.status).toBe(401);
    expect(expired.body).toEqual({ message: 'Expired', description: 'Request error: Token is expired' });

    const unknown = await validateToken(emulator, 'nope');
    expect(unknown.status).toBe(400);
    expectErrorShape(unknown.body, '7114');
  });

  it('combines with errorWith200: a 200 without errorCode', async () => {
    emulator.setQuirks({ noErrorCodeOn401: true, errorWith200: true });
    const wrong = await validateToken(emulator, 'nope', { clientId: 'x', clientSecret: 'y' });
    expect(wrong.status).toBe(200);
    expect(wrong.body).toEqual({ message: 'Access blocked', description: 'Authorization error: Invalid credentials' });
  });
});

describe('quirk verifiedAtAtAnswer', () => {
  it("stamps validate-token's identities' verifiedAt with each answer's time; off, it dates the sign-in", async () => {
    const token = emulator.issueToken();
    const stamps = async () =>
      ((await validateToken(emulator, token)).body.identities as Array<{ verifiedAt?: string }>).map(
        (i) => i.verifiedAt,
      );
    const before = await stamps();
    emulator.advanceTime(2_500);
    expect(await stamps()).toEqual(before);

    emulator.setQuirks({ verifiedAtAtAnswer: true });
    const first = await stamps();
    emulator.advanceTime(2_500);
    const second = await stamps();
    expect(first).toHaveLength(1);
    expect(Date.parse(second[0]!) - Date.parse(first[0]!)).toBeGreaterThanOrEqual(2_500);
    // The answer's own timestamp still dates the sign-in: only verifiedAt moves.
    expect((await validateToken(emulator, token)).body.timestamp).toBe(before[0]);
  });
});
