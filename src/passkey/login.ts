import { channels } from '../diagnostics.js';
import type { LoginSetup, LoginVerifier } from '../login/compose.js';
import { writeRecordOnLogin } from '../session/loginRecord.js';
import type { UnboundLoginRecord } from '../session/loginRecord.js';
import type { IdentityType } from '../wire/types.js';
import type { HttpRequest } from '../web/request.js';
import type { PasskeyCredential } from './credentials.js';

/** A `MagicLinkProfile` as a passkey sign-in fills it (typed here: the room sits below the strategy). */
export interface PasskeyProfile {
  provider: 'otpless';
  id: string;
  emails: Array<{ value: string; verified: boolean }>;
  phoneNumbers: Array<{ value: string; verified: boolean }>;
  identities: Array<{ type: IdentityType; value: string; methods: string[]; verified: boolean }>;
  via: 'passkey';
  passkey: { credentialId: string; registeredAt: Date };
  _json: Record<string, never>;
}

/**
 * The profile of a passkey sign-in: the user and identities the link login that registered the
 * passkey verified, `via: 'passkey'`, and nothing the service would have said (no call was made).
 */
export function passkeyProfile(credential: PasskeyCredential): PasskeyProfile {
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
  verify: LoginVerifier,
  req: HttpRequest,
  credential: PasskeyCredential,
): Promise<Awaited<ReturnType<LoginVerifier>>> {
  const outcome = await verify(req, passkeyProfile(credential));
  if (!outcome.user) return outcome;
  writeRecordOnLogin(req, passkeyRecord(credential), setup.secrets.recordKey);
  if (channels.loginSucceeded.hasSubscribers) {
    channels.loginSucceeded.publish({ via: 'passkey', verified: passkeyRecord(credential).verified });
  }
  return outcome;
}
