import type { AuthenticationResponseJSON } from '@simplewebauthn/server';
import type { HttpRequest } from '../web/request.js';
import { takeChallenge } from './challenges.js';
import type { PasskeyContext } from './context.js';
import type { PasskeyCredential } from './credentials.js';
import { passkeyRefusal } from './refusals.js';
import { refusalOfLibrary, responseShape } from './responses.js';
import { loadWebAuthn } from './webauthn.js';

/**
 * Step 2 of a sign-in: checks the browser's answer against this browser's challenge (taken
 * once), the site's origin and RP ID, and the stored public key; the user handle must be the
 * credential's. A signature counter that did not move on is refused (a cloned authenticator),
 * except 0 -> 0 (synced passkeys keep none). On success the new counter is stored and the
 * credential returned: the caller signs its user in.
 */
export async function authenticationVerify(
  ctx: PasskeyContext,
  req: HttpRequest,
  body: unknown,
): Promise<PasskeyCredential> {
  const challenge = await takeChallenge(ctx, req, 'login', body);
  const response = responseShape(body, 'signature') as AuthenticationResponseJSON | undefined;
  if (!response) throw passkeyRefusal('PASSKEY_INVALID', req, ctx.locale);
  const credential = await ctx.settings.credentials.find(response.id);
  if (!credential) throw passkeyRefusal('PASSKEY_UNKNOWN', req, ctx.locale);
  const handle = response.response.userHandle;
  if (handle !== undefined && handle !== credential.userHandle)
    throw passkeyRefusal('PASSKEY_UNKNOWN', req, ctx.locale);
  const { verifyAuthenticationResponse } = await loadWebAuthn();
  let verified;
  try {
    verified = await verifyAuthenticationResponse({
      response,
      expectedChallenge: challenge,
      expectedOrigin: ctx.settings.origin,
      expectedRPID: ctx.settings.rpID,
      requireUserVerification: true,
      // Counter 0 to the library: the counter rule is ours, below, with its own code.
      credential: {
        id: credential.id,
        publicKey: new Uint8Array(Buffer.from(credential.publicKey, 'base64url')),
        counter: 0,
        transports: credential.transports as never,
      },
    });
  } catch (err) {
    throw passkeyRefusal(refusalOfLibrary(err), req, ctx.locale);
  }
  if (!verified.verified) throw passkeyRefusal('PASSKEY_INVALID', req, ctx.locale);
  const counter = verified.authenticationInfo.newCounter;
  if (counterWentBack(credential.counter, counter)) throw passkeyRefusal('PASSKEY_COUNTER_BACKWARDS', req, ctx.locale);
  const now = Date.now();
  await ctx.settings.credentials.updateCounter(credential.id, counter, now);
  return { ...credential, counter, lastUsedAt: now };
}

/** True when a counter the authenticator keeps did not move forward (0 -> 0: it keeps none). */
export function counterWentBack(stored: number, given: number): boolean {
  return (stored > 0 || given > 0) && given <= stored;
}
