// Unverified identities: nextLogin({ unverified }) and issueToken({ unverified }).
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startEmulator, type Emulator } from '../../src/emulator/index.js';
import { logIn, sessionDetails, userInfo, validateToken } from './helpers.js';

let emulator: Emulator;
beforeAll(async () => {
  emulator = await startEmulator();
});
beforeEach(() => emulator.reset());
afterAll(() => emulator.close());

describe('nextLogin({ unverified })', () => {
  it('answers the next verified login with verified: false for that identity type, everywhere', async () => {
    emulator.nextLogin({ unverified: ['EMAIL'] });
    const { verified, token, entry } = await logIn(emulator, { email: 'unsure@example.com' });
    expect(verified.userDetails.identities).toEqual([
      {
        identityType: 'EMAIL',
        identityValue: 'unsure@example.com',
        channel: 'MAGIC_LINK',
        methods: ['EMAIL'],
        verified: false,
      },
    ]);
    const validated = await validateToken(emulator, token);
    expect(validated.body.identities[0]).toMatchObject({ identityType: 'EMAIL', verified: false });
    expect(validated.body.identities[0]).not.toHaveProperty('verifiedAt');
    const info = await userInfo(emulator, token);
    expect(info.body).toMatchObject({ email: 'unsure@example.com', email_verified: false });
    expect(info.body.authentication_details.email.auth_state).toBe('unverified');
    const session = await sessionDetails(emulator, entry.sessionToken);
    expect(session.body.identities[0]).not.toHaveProperty('verifiedAt');
  });

  it('applies once: the login after it is verified again', async () => {
    emulator.nextLogin({ unverified: ['EMAIL'] });
    await logIn(emulator, { email: 'first@example.com' });
    const { verified } = await logIn(emulator, { email: 'second@example.com' });
    expect(verified.userDetails.identities[0]).toMatchObject({ verified: true, verifiedTimestamp: expect.any(Number) });
  });

  it('leaves identity types it does not name verified', async () => {
    emulator.nextLogin({ unverified: ['MOBILE'] });
    const { verified } = await logIn(emulator, { email: 'mail@example.com' });
    expect(verified.userDetails.identities[0]).toMatchObject({ identityType: 'EMAIL', verified: true });
  });

  it('is forgotten by reset(), and checks its options', async () => {
    emulator.nextLogin({ unverified: ['EMAIL'] });
    emulator.reset();
    const { verified } = await logIn(emulator, { email: 'after-reset@example.com' });
    expect(verified.userDetails.identities[0].verified).toBe(true);
    expect(() => emulator.nextLogin({ unverified: ['PHONE' as never] })).toThrow(/unverified/);
    expect(() => emulator.nextLogin({ unverified: 'EMAIL' as never })).toThrow(TypeError);
    expect(() => emulator.nextLogin(null as never)).toThrow(TypeError);
  });
});

describe('issueToken({ unverified })', () => {
  it('issues a login whose named identity is unverified', async () => {
    const token = emulator.issueToken({
      email: 'both@example.com',
      mobileNumber: '919876543210',
      unverified: ['MOBILE'],
    });
    const { body } = await validateToken(emulator, token);
    expect(
      body.identities.map((i: { identityType: string; verified: boolean }) => [i.identityType, i.verified]),
    ).toEqual([
      ['MOBILE', false],
      ['EMAIL', true],
    ]);
    const info = await userInfo(emulator, token);
    expect(info.body.email_verified).toBe(true);
    expect(info.body.authentication_details.phone.auth_state).toBe('unverified');
    expect(() => emulator.issueToken({ unverified: ['nope' as never] })).toThrow(/issueToken: unverified/);
  });
});
