import { channels } from '../diagnostics.js';
import type { LoginSetup } from '../login/compose.js';
import { writeRecordOnLogin } from '../session/loginRecord.js';
import type { UnboundLoginRecord } from '../session/loginRecord.js';
import type { MagicLinkProfile } from '../strategy/profile.js';
import { runVerify } from '../strategy/verify.js';
import type { VerifyFunction, VerifyFunctionWithRequest, VerifyOutcome } from '../strategy/verify.js';
import type { HttpRequest } from '../web/request.js';
import type { PasskeyCredential } from './credentials.js';

/**
 * The profile of a passkey sign-in: the user and identities the link login that registered the
 * passkey verified, `via: 'passkey'`, and nothing the service would have said (no call was made).
 */
export function passkeyProfile(credential: PasskeyCredential): MagicLinkProfile {
  const identities = credential.identities.map((i) => ({
    type: i.type,
    value: i.value,
    methods: ['PASSKEY'],
    verified: true,
  }));
  return {
    provider: 'otpless',
    id: credential.userId,
    emails: identities.filter((i) => i.type === 'EMAIL').map((i) => ({ value: i.value, verified: true })),
    phoneNumbers: identities.filter((i) => i.type === 'MOBILE').map((i) => ({ value: i.value, verified: true })),
    identities,
    via: 'passkey',
    passkey: { credentialId: credential.id, registeredAt: new Date(credential.createdAt) },
    _json: {},
  };
}

/** The login record of a passkey sign-in: `via: 'passkey'`, no risk signals, no token. */
export function passkeyRecord(credential: PasskeyCredential): UnboundLoginRecord {
  return {
    v: 2,
    id: credential.userId,
    verified: [...new Set(credential.identities.map((i) => i.type))],
    via: 'passkey',
  };
}

/**
 * Runs the app's `verify` with the passkey's profile, and arranges the login record for the
 * moment Passport logs the user in. A user, or the refusal `verify` gave.
 */
export async function verifyPasskeyUser(
  setup: LoginSetup,
  verify: VerifyFunction | VerifyFunctionWithRequest,
  req: HttpRequest,
  credential: PasskeyCredential,
): Promise<VerifyOutcome> {
  const outcome = await runVerify(verify, setup.passReqToCallback, req, passkeyProfile(credential));
  if (!outcome.user) return outcome;
  writeRecordOnLogin(req, passkeyRecord(credential), setup.secrets.recordKey);
  if (channels.loginSucceeded.hasSubscribers) {
    channels.loginSucceeded.publish({ via: 'passkey', verified: passkeyRecord(credential).verified });
  }
  return outcome;
}
