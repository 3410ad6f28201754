/**
 * The profile a verify callback gets, from both shapes of the verify-code answer
 * (service-facts.md), read by the client from a real local server.
 */
import { describe, expect, it } from 'vitest';
import { OtplessClient } from '../../src/client/index.js';
import { buildProfile } from '../../src/strategy/profile.js';
import { hashDestination } from '../../src/session/pending.js';
import type { CaptureServer } from '../client/helpers/captureServer.js';
import { useCaptureClient } from '../helpers/captureClient.js';
import { copy, verifyCodeOk } from '../client/helpers/fixtures.js';

let server: CaptureServer;
let client: OtplessClient;
useCaptureClient((s, c) => ((server = s), (client = c)));

/** The profile built from a verify-code answer the service sends as `body`. */
async function profileOf(body: unknown) {
  server.reply(() => ({ body }));
  const verification = await client.verifyCode('code-1');
  const profile = buildProfile({ verification }, undefined);
  if (!profile) throw new Error('no verified identity in this answer');
  return profile;
}

/** The older shape: `timestamp`, identities with `verifiedAt` (ISO) and `name`, a fuller network. */
const olderShape = {
  requestId: 'req-1',
  message: 'Code verified successfully',
  userDetails: {
    token: 'tok-old',
    status: 'SUCCESS',
    timestamp: '2024-08-05T14:01:31Z',
    identities: [
      {
        identityType: 'MOBILE',
        identityValue: '919876543210',
        channel: 'MAGIC_LINK',
        methods: ['WHATSAPP'],
        verified: true,
        verifiedAt: '2024-08-05T14:01:31Z',
        name: 'Ada Lovelace',
      },
    ],
    network: { ip: '203.0.113.7', timezone: 'Asia/Kolkata', ipLocation: { city: { name: 'Mumbai' } } },
  },
};

describe('profile from verify-code', () => {
  it('the current shape: verifiedTimestamp (epoch ms) is the verification time', async () => {
    const profile = await profileOf(verifyCodeOk);
    expect(profile).toMatchObject({
      provider: 'otpless',
      id: 'ada@example.com',
      emails: [{ value: 'ada@example.com', verified: true }],
      phoneNumbers: [],
      identities: [
        {
          type: 'EMAIL',
          value: 'ada@example.com',
          channel: 'MAGIC_LINK',
          methods: ['EMAIL'],
          verified: true,
          verifiedAt: new Date(1_763_000_000_000),
        },
      ],
      network: { ip: '203.0.113.7' },
    });
    expect(profile.identities[0]).not.toHaveProperty('name');
    expect(profile).not.toHaveProperty('displayName');
  });

  it('the older shape: verifiedAt (ISO) is the verification time, the name is kept and shown', async () => {
    const profile = await profileOf(olderShape);
    expect(profile).toMatchObject({
      id: '+919876543210',
      displayName: 'Ada Lovelace',
      phoneNumbers: [{ value: '+919876543210', verified: true }],
      emails: [],
      identities: [
        {
          type: 'MOBILE',
          value: '+919876543210',
          channel: 'MAGIC_LINK',
          methods: ['WHATSAPP'],
          verified: true,
          verifiedAt: new Date('2024-08-05T14:01:31Z'),
          name: 'Ada Lovelace',
        },
      ],
      network: { ip: '203.0.113.7', timezone: 'Asia/Kolkata', ipLocation: { city: { name: 'Mumbai' } } },
    });
    expect(profile._json.verification?.userDetails.timestamp).toBe('2024-08-05T14:01:31Z');
  });

  it('an identity reported without `verified` counts only when it is where this browser sent the link', async () => {
    const older = copy(olderShape) as { userDetails: { identities: Record<string, unknown>[] } };
    delete older.userDetails.identities[0]?.verified;
    server.reply(() => ({ body: older }));
    const verification = await client.verifyCode('code-1');
    // Not a destination of this browser's send: no verified identity, no profile (the login is refused).
    expect(buildProfile({ verification }, undefined)).toBeUndefined();
    const sentHere = buildProfile({ verification }, undefined, [hashDestination('+919876543210')]);
    expect(sentHere?.phoneNumbers).toEqual([{ value: '+919876543210', verified: true }]);
    expect(sentHere?.id).toBe('+919876543210');
  });

  it('when both times are there, verifiedTimestamp wins; a time that is not a date is left out', async () => {
    const both = copy(verifyCodeOk) as unknown as { userDetails: { identities: Record<string, unknown>[] } };
    Object.assign(both.userDetails.identities[0] ?? {}, { verifiedAt: '2020-01-01T00:00:00Z' });
    expect((await profileOf(both)).identities[0]?.verifiedAt).toEqual(new Date(1_763_000_000_000));

    const undated = copy(olderShape);
    Object.assign(undated.userDetails.identities[0] ?? {}, { verifiedAt: 'yesterday' });
    expect((await profileOf(undated)).identities[0]).not.toHaveProperty('verifiedAt');
  });

  it('an identity of an unknown type is left out; a malformed detail is left out, the login is not', async () => {
    const odd = copy(olderShape) as { userDetails: { identities: Record<string, unknown>[] } };
    odd.userDetails.identities.push({ identityType: 'PASSKEY', identityValue: 'pk-1', verified: true });
    Object.assign(odd.userDetails.identities[0] ?? {}, { name: 42, methods: 'WHATSAPP' });
    const profile = await profileOf(odd);
    expect(profile.identities).toEqual([
      {
        type: 'MOBILE',
        value: '+919876543210',
        channel: 'MAGIC_LINK',
        methods: [],
        verified: true,
        verifiedAt: new Date('2024-08-05T14:01:31Z'),
      },
    ]);
    expect(profile).not.toHaveProperty('displayName');
  });
});
