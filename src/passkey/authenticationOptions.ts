import type { HttpRequest } from '../web/request.js';
import { CEREMONY_TIMEOUT_MS, keepChallenge } from './challenges.js';
import type { CeremonyStart } from './challenges.js';
import type { PasskeyContext } from './context.js';
import { loadWebAuthn } from './webauthn.js';

/**
 * Step 1 of a sign-in: the options for `navigator.credentials.get()`, with no credentials named
 * (the passkeys are discoverable: the browser offers the ones it holds for this site, and the
 * page names no one). The challenge is kept for this browser (its cookie), once, two minutes.
 */
export async function authenticationOptions(ctx: PasskeyContext, req: HttpRequest): Promise<CeremonyStart> {
  const { generateAuthenticationOptions } = await loadWebAuthn();
  const options = await generateAuthenticationOptions({
    rpID: ctx.settings.rpID,
    userVerification: 'required',
    timeout: CEREMONY_TIMEOUT_MS,
  });
  return { options, cookie: await keepChallenge(ctx, req, 'login', options.challenge) };
}
