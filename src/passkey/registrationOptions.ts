import type { HttpRequest } from '../web/request.js';
import { CEREMONY_TIMEOUT_MS, keepChallenge } from './challenges.js';
import type { CeremonyStart } from './challenges.js';
import { userHandleOf } from './context.js';
import type { PasskeyContext } from './context.js';
import { readGrant } from './grant.js';
import { loadWebAuthn } from './webauthn.js';

/**
 * Step 1 of a registration: the options for `navigator.credentials.create()`, for the user this
 * session's fresh link login verified (and no one else), with that user's passkeys excluded so a
 * device makes no second one. The challenge is kept for this browser (its cookie), once, two minutes.
 */
export async function registrationOptions(ctx: PasskeyContext, req: HttpRequest): Promise<CeremonyStart> {
  const grant = await readGrant(ctx.store, req);
  const { generateRegistrationOptions } = await loadWebAuthn();
  const existing = await ctx.settings.credentials.listByUser(grant.userId);
  const options = await generateRegistrationOptions({
    rpName: ctx.settings.rpName,
    rpID: ctx.settings.rpID,
    userName: grant.userId,
    userID: userHandleOf(ctx, grant.userId) as Uint8Array<ArrayBuffer>,
    timeout: CEREMONY_TIMEOUT_MS,
    attestationType: 'none',
    excludeCredentials: existing.map((c) => ({ id: c.id, transports: c.transports })),
    authenticatorSelection: { residentKey: 'required', userVerification: 'required' },
  });
  return { options, cookie: await keepChallenge(ctx, req, 'register', options.challenge) };
}
