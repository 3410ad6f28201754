// Clicking a magic link: redirect with ?code=, one code per link, single use, expiry, captured browser.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startEmulator, type Emulator } from '../../../src/emulator/index.js';
import { click, codeOf, expectErrorShape, lastEntry, SAFARI_UA, sendLink, validateToken, verify } from '../helpers.js';

let emulator: Emulator;
beforeAll(async () => {
  emulator = await startEmulator({ quiet: true });
});
beforeEach(() => emulator.reset());
afterAll(() => emulator.close());

async function linkFor(redirectUri = 'http://app.test/cb', expiry?: string) {
  const sent = await sendLink(emulator, {
    email: 'jane@example.com',
    redirect_uri: redirectUri,
    ...(expiry ? { expiry } : {}),
  });
  expect(sent.status).toBe(200);
  return lastEntry(emulator);
}

describe('redirect', () => {
  it('redirects 302 to redirect_uri with the code, keeping existing query params and fragment', async () => {
    const entry = await linkFor('https://app.test/login/callback?next=%2Fhome%3Fa%3D1&flag&lang=en#top');
    const response = await click(entry.link);
    expect(response.status).toBe(302);
    const location = response.headers.get('location') ?? '';
    expect(location).toMatch(
      /^https:\/\/app\.test\/login\/callback\?next=%2Fhome%3Fa%3D1&flag&lang=en&code=[\w-]{20,}#top$/,
    );
    expect(response.headers.get('referrer-policy')).toBe('no-referrer');
  });

  it('replaces an existing code parameter', async () => {
    const entry = await linkFor('http://app.test/cb?code=stale&x=1');
    const location = new URL((await click(entry.link)).headers.get('location') ?? '');
    expect(location.searchParams.getAll('code')).toHaveLength(1);
    expect(location.searchParams.get('code')).not.toBe('stale');
    expect(location.searchParams.get('x')).toBe('1');
  });

  it('gives the same code on every click', async () => {
    const entry = await linkFor();
    const first = codeOf(await click(entry.link));
    const second = codeOf(await click(entry.link));
    expect(second).toBe(first);
  });

  it('gives different links different codes', async () => {
    const a = codeOf(await click((await linkFor()).link));
    const b = codeOf(await click((await linkFor()).link));
    expect(a).not.toBe(b);
  });

  it('answers 404 for an unknown link', async () => {
    const response = await fetch(`${emulator.authUrl}/__emulator/link/does-not-exist`, { redirect: 'manual' });
    expect(response.status).toBe(404);
    expect(response.headers.get('content-type')).toMatch(/^text\/html/);
  });

  it('answers 400 for an unknown risk scenario and issues no code', async () => {
    const entry = await linkFor();
    const response = await click(entry.link, { risk: 'nope' });
    expect(response.status).toBe(400);
    expect(await response.text()).toContain('clean');
  });
});

describe('expiry', () => {
  it('shows a 410 page for an expired link', async () => {
    const entry = await linkFor('http://app.test/cb', '60');
    emulator.advanceTime(60_000);
    const response = await click(entry.link);
    expect(response.status).toBe(410);
    expect(response.headers.get('content-type')).toMatch(/^text\/html/);
    expect(await response.text()).toMatch(/expired/i);
  });

  it('expires the code with the link: 401 7301 with the label "Expired"', async () => {
    const entry = await linkFor('http://app.test/cb', '60');
    const code = codeOf(await click(entry.link));
    emulator.advanceTime(59_000);
    emulator.advanceTime(1_000);
    const { status, body } = await verify(emulator, code);
    expect(status).toBe(401);
    expectErrorShape(body, '7301');
    expect(body.message).toBe('Expired');
  });

  it('accepts the code just before the link expires', async () => {
    const entry = await linkFor('http://app.test/cb', '60');
    const code = codeOf(await click(entry.link));
    emulator.advanceTime(55_000);
    expect((await verify(emulator, code)).status).toBe(200);
  });
});

describe('verify code', () => {
  it('is single use: a second verify answers 400 7114', async () => {
    const code = codeOf(await click((await linkFor()).link));
    expect((await verify(emulator, code)).status).toBe(200);
    const again = await verify(emulator, code);
    expect(again.status).toBe(400);
    expectErrorShape(again.body, '7114');
  });

  it('still redirects after use, with the same (now used) code', async () => {
    const entry = await linkFor();
    const code = codeOf(await click(entry.link));
    await verify(emulator, code);
    const later = await click(entry.link);
    expect(codeOf(later)).toBe(code);
    expect((await verify(emulator, codeOf(later))).status).toBe(400);
  });

  it('rejects an unknown code with 400 7114', async () => {
    const response = await verify(emulator, 'made-up-code');
    expect(response.status).toBe(400);
    expectErrorShape(response.body, '7114');
  });

  it('rejects empty, missing and non-string codes with 400 7101 (invalid parameters)', async () => {
    for (const body of [{ code: '' }, {}, { code: 12345 }, { code: null }]) {
      const response = await verify(emulator, body.code as string);
      expect(response.status, JSON.stringify(body)).toBe(400);
      expectErrorShape(response.body, '7101');
    }
  });

  it("answers requestId equal to the send's one request id, whichever channel's link was clicked", async () => {
    for (const type of ['MOBILE', 'EMAIL'] as const) {
      const { body } = await sendLink(emulator, { mobile_number: '919876543210', email: 'a@example.com' });
      const entry = lastEntry(emulator, type);
      const verified = await verify(emulator, codeOf(await click(entry.link)));
      expect(verified.body.requestId).toBe(body.requestIds[0].value);
      expect(verified.body.requestId).toBe(body.requestIds[1].value);
      expect(verified.body.requestId).toBe(entry.requestId);
    }
  });

  it('gives every verification a new token', async () => {
    const a = await verify(emulator, codeOf(await click((await linkFor()).link)));
    const b = await verify(emulator, codeOf(await click((await linkFor()).link)));
    expect(a.body.userDetails.token).not.toBe(b.body.userDetails.token);
  });
});

describe('captured browser and scenario', () => {
  it("records the clicking browser's User-Agent, language and IP", async () => {
    const entry = await linkFor();
    const response = await fetch(entry.link, {
      redirect: 'manual',
      headers: { 'user-agent': SAFARI_UA, 'accept-language': 'hi-IN,hi;q=0.9' },
    });
    const verified = await verify(emulator, codeOf(response));
    expect(verified.body.userDetails.deviceInfo).toMatchObject({
      userAgent: SAFARI_UA,
      platform: 'MacIntel',
      language: 'hi-IN',
    });
    expect(verified.body.userDetails.network.ip).toBe('127.0.0.1');
  });

  it("records the last click's scenario before verification, and fixes it after", async () => {
    const entry = await linkFor();
    await click(entry.link, { risk: 'bot' });
    const code = codeOf(await click(entry.link, { risk: 'vpn' }));
    const token = (await verify(emulator, code)).body.userDetails.token;
    await click(entry.link, { risk: 'tampering' });
    const { body } = await validateToken(emulator, token);
    expect(body.secureInfo.vpn.result).toBe(true);
    expect(body.secureInfo.bot.result).toBe('notDetected');
    expect(body.secureInfo.tampering.result).toBe(false);
  });

  it('accepts no code before a click: link id, request id and session token are not codes', async () => {
    const entry = await linkFor();
    const linkId = entry.link.split('/').at(-1) ?? '';
    for (const guess of [linkId, entry.requestId, entry.sessionToken]) {
      const response = await verify(emulator, guess);
      expect(response.status).toBe(400);
      expectErrorShape(response.body, '7114');
    }
    // The same link still works once clicked.
    expect((await verify(emulator, codeOf(await click(entry.link)))).status).toBe(200);
  });
});
