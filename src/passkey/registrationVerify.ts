import type { RegistrationResponseJSON } from '@simplewebauthn/server';
import { channels } from '../diagnostics.js';
import type { HttpRequest } from '../web/request.js';
import { takeChallenge } from './challenges.js';
import { userHandleOf } from './context.js';
import type { PasskeyContext } from './context.js';
import type { PasskeyCredential } from './credentials.js';
import { readGrant } from './grant.js';
import { passkeyRefusal } from './refusals.js';
import { refusalOfLibrary, responseShape } from './responses.js';
import { loadWebAuthn } from './webauthn.js';

/**
 * Step 2 of a registration: checks the browser's answer against this browser's challenge (taken
 * once), the site's origin and RP ID, and the grant of the fresh link login; saves the passkey
 * for that login's user, and spends the grant (one passkey per link login).
 */
export async function registrationVerify(
  ctx: PasskeyContext,
  req: HttpRequest,
  body: unknown,
): Promise<PasskeyCredential> {
  const challenge = await takeChallenge(ctx, req, 'register', body);
  const grant = await readGrant(ctx.store, req);
  const response = responseShape(body, 'attestationObject') as RegistrationResponseJSON | undefined;
  if (!response) throw passkeyRefusal('PASSKEY_INVALID', req, ctx.locale);
  const { verifyRegistrationResponse } = await loadWebAuthn();
  let verified;
  try {
    verified = await verifyRegistrationResponse({
      response,
      expectedChallenge: challenge,
      expectedOrigin: ctx.settings.origin,
      expectedRPID: ctx.settings.rpID,
      requireUserVerification: true,
    });
  } catch (err) {
    throw passkeyRefusal(refusalOfLibrary(err), req, ctx.locale);
  }
  if (!verified.verified || !verified.registrationInfo) throw passkeyRefusal('PASSKEY_INVALID', req, ctx.locale);
  const made = verified.registrationInfo.credential;
  const credential: PasskeyCredential = {
    id: made.id,
    userId: grant.userId,
    userHandle: Buffer.from(userHandleOf(ctx, grant.userId)).toString('base64url'),
    publicKey: Buffer.from(made.publicKey).toString('base64url'),
    counter: made.counter,
    transports: [...(made.transports ?? [])],
    identities: grant.identities,
    createdAt: Date.now(),
  };
  if (!(await ctx.settings.credentials.save(credential))) throw passkeyRefusal('PASSKEY_INVALID', req, ctx.locale);
  // Spent only now: a response that did not verify leaves the offer open for another try.
  await readGrant(ctx.store, req, true).catch(() => undefined);
  if (channels.passkeyRegistered.hasSubscribers) {
    channels.passkeyRegistered.publish({ verified: [...new Set(grant.identities.map((i) => i.type))] });
  }
  return credential;
}
