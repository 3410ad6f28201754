// Tokens and session tokens: one user across operations, stable user ids, expiry, issueToken.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startEmulator, type Emulator } from '../../../src/emulator/index.js';
import {
  click,
  codeOf,
  expectErrorShape,
  lastEntry,
  logIn,
  MINUTE,
  secureInfo,
  sendLink,
  sessionDetails,
  userInfo,
  validateToken,
  verify,
} from '../helpers.js';

let emulator: Emulator;
beforeAll(async () => {
  emulator = await startEmulator({ quiet: true });
});
beforeEach(() => emulator.reset());
afterAll(() => emulator.close());

describe('one token, three endpoints, one user', () => {
  it('validate-token, secure-info and userInfo all accept the verified token and agree', async () => {
    const { token, verified } = await logIn(emulator, { email: 'sam.lee@example.com' });
    const [validated, secure, info] = await Promise.all([
      validateToken(emulator, token),
      secureInfo(emulator, token),
      userInfo(emulator, token),
    ]);
    expect([validated.status, secure.status, info.status]).toEqual([200, 200, 200]);
    expect(validated.body.identities[0].identityValue).toBe('sam.lee@example.com');
    expect(info.body.email).toBe('sam.lee@example.com');
    expect(info.body.name).toBe('Sam Lee');
    expect(secure.body.device_info.deviceId).toBe(validated.body.deviceInfo.deviceId);
    expect(secure.body.network_info.ip).toBe(validated.body.network.ip);
    expect(validated.body.deviceInfo.userAgent).toBe(verified.userDetails.deviceInfo.userAgent);
  });

  it('keeps the userId of an identity across logins (any e-mail case), and separates identities', async () => {
    const first = await logIn(emulator, { email: 'same@example.com' });
    const second = await logIn(emulator, { email: 'SAME@Example.com' });
    const other = await logIn(emulator, { email: 'other@example.com' });
    const ids = await Promise.all(
      [first, second, other].map(async ({ token }) => (await validateToken(emulator, token)).body.userId),
    );
    expect(ids[0]).toBe(ids[1]);
    expect(ids[2]).not.toBe(ids[0]);
    expect(first.token).not.toBe(second.token);
  });

  it('gives the same userId to issueToken and magic-link logins of one identity', async () => {
    const { token } = await logIn(emulator, { mobile_number: '919876543210' });
    const issued = emulator.issueToken({ mobileNumber: '919876543210' });
    const [a, b] = await Promise.all([validateToken(emulator, token), validateToken(emulator, issued)]);
    expect(a.body.userId).toBe(b.body.userId);
    expect(a.body.userId).toMatch(/^MO-/);
  });
});

describe('token errors', () => {
  it('answers 400 7114 for an unknown token on validate-token, secure-info and userInfo', async () => {
    for (const call of [validateToken, secureInfo, userInfo]) {
      const { status, body } = await call(emulator, 'not-a-token');
      expect(status).toBe(400);
      expectErrorShape(body, '7114');
      expect(body.description).toBe('Request error: Invalid token');
    }
  });

  it('answers 400 7101 (invalid parameters) for an empty or missing token', async () => {
    for (const call of [validateToken, secureInfo, userInfo]) {
      for (const token of ['', undefined]) {
        const { status, body } = await call(emulator, token as string);
        expect(status).toBe(400);
        expectErrorShape(body, '7101');
      }
    }
  });

  it('expires tokens after 15 minutes: 401 7301 "Expired" on every token endpoint, userInfo included', async () => {
    const { token } = await logIn(emulator);
    emulator.advanceTime(15 * MINUTE - 1000);
    expect((await validateToken(emulator, token)).status).toBe(200);
    emulator.advanceTime(1000);
    for (const call of [validateToken, secureInfo, userInfo]) {
      const { status, body } = await call(emulator, token);
      expect(status).toBe(401);
      expectErrorShape(body, '7301');
      expect(body).toEqual({ message: 'Expired', errorCode: '7301', description: 'Request error: Token is expired' });
    }
  });

  it('honours tokenTtlMs', async () => {
    const short = await startEmulator({ quiet: true, tokenTtlMs: 1000 });
    try {
      const token = short.issueToken();
      short.advanceTime(1000);
      expect((await validateToken(short, token)).status).toBe(401);
    } finally {
      await short.close();
    }
  });
});

describe('session token', () => {
  it('is refused before the login completes (clicked or not), and accepted after verification', async () => {
    await sendLink(emulator, { email: 'jane@example.com' });
    const entry = lastEntry(emulator);
    const pending = await sessionDetails(emulator, entry.sessionToken);
    expect(pending.status).toBe(400);
    expectErrorShape(pending.body, '7114');
    expect(pending.body.description).toMatch(/not completed/);
    expect(pending.body.description).toMatch(/^Request error: /);

    const code = codeOf(await click(entry.link));
    expect((await sessionDetails(emulator, entry.sessionToken)).status).toBe(400);

    const verified = await verify(emulator, code);
    const { status, body } = await sessionDetails(emulator, entry.sessionToken);
    expect(status).toBe(200);
    expect(body.startedAt).toBe(verified.body.userDetails.completedAt);
  });

  it('answers 400 7114 for an unknown session token', async () => {
    const { status, body } = await sessionDetails(emulator, 'unknown');
    expect(status).toBe(400);
    expectErrorShape(body, '7114');
  });

  it('outlives the token while used, updates lastActiveAt, and expires after 30 idle minutes', async () => {
    const { entry } = await logIn(emulator);
    emulator.advanceTime(20 * MINUTE);
    const active = await sessionDetails(emulator, entry.sessionToken);
    expect(active.status).toBe(200);
    expect(active.body.lastActiveAt).toBeGreaterThanOrEqual(active.body.startedAt + 20 * MINUTE);
    emulator.advanceTime(30 * MINUTE);
    const expired = await sessionDetails(emulator, entry.sessionToken);
    expect(expired.status).toBe(401);
    expectErrorShape(expired.body, '7301');
  });

  it('is not a token, and a token is not a session token', async () => {
    const { entry, token } = await logIn(emulator);
    expect((await validateToken(emulator, entry.sessionToken)).status).toBe(400);
    expect((await sessionDetails(emulator, token)).status).toBe(400);
  });
});

describe('issueToken', () => {
  it('creates a completed login valid on all three token endpoints', async () => {
    const token = emulator.issueToken({ email: 'ada@example.com', mobileNumber: '14155550100', risk: 'incognito' });
    const [validated, secure, info] = await Promise.all([
      validateToken(emulator, token),
      secureInfo(emulator, token),
      userInfo(emulator, token),
    ]);
    expect(validated.status).toBe(200);
    expect(
      validated.body.identities.map((identity: { identityType: string; methods: string[] }) => [
        identity.identityType,
        identity.methods,
      ]),
    ).toEqual([
      ['MOBILE', ['WHATSAPP']],
      ['EMAIL', ['EMAIL']],
    ]);
    expect(validated.body.secureInfo.incognito).toBe(true);
    expect(secure.body.secure_info.incognito).toBe(true);
    expect(info.body).toMatchObject({
      email: 'ada@example.com',
      phone_number: '+14155550100',
      country_code: '+1',
      email_verified: true,
      name: 'Ada',
    });
  });

  it('defaults to a clean e-mail login', async () => {
    const { status, body } = await validateToken(emulator, emulator.issueToken());
    expect(status).toBe(200);
    expect(body.identities[0]).toMatchObject({ identityType: 'EMAIL', identityValue: 'emulator.user@example.com' });
    expect(body.secureInfo.suspectScore.result).toBe(0);
  });

  it('returns a new token on every call, and leaves the outbox alone', () => {
    expect(emulator.issueToken()).not.toBe(emulator.issueToken());
    expect(emulator.outbox()).toEqual([]);
  });

  it('throws a TypeError for bad options', () => {
    expect(() => emulator.issueToken({ email: 'nope' })).toThrow(TypeError);
    expect(() => emulator.issueToken({ mobileNumber: '+123' })).toThrow(TypeError);
    expect(() => emulator.issueToken({ risk: 'scary' as never })).toThrow(/risk must be one of/);
    expect(() => emulator.issueToken({ clientId: 'nobody' })).toThrow(/not a configured client/);
  });

  it('is forgotten by reset()', async () => {
    const token = emulator.issueToken();
    emulator.reset();
    expect((await validateToken(emulator, token)).status).toBe(400);
  });
});
