import type { MagicLinkRequestEntry, SendMagicLinkResponse } from '../../wire/types.js';
import { apiError } from '../errors.js';
import { sendJson } from '../http.js';
import { LINK_PREFIX } from '../devPaths.js';
import { randomId } from '../ids.js';
import { identitiesOf, newLogin } from '../logins.js';
import type { OutboxEntry } from '../types.js';
import { isValidEmail, isValidMobile, isValidRedirectUri, parseExpiry } from '../validation.js';
import type { Handler } from './types.js';

/** Checks the query like the service does (section 4.1); throws the matching 400. */
function parseSendQuery(params: URLSearchParams) {
  const redirectUri = params.get('redirect_uri') ?? '';
  if (!isValidRedirectUri(redirectUri)) throw apiError('invalidRedirectUri');
  const mobile = params.get('mobile_number') ?? '';
  const email = (params.get('email') ?? '').trim();
  if (mobile === '' && email === '') throw apiError('missingIdentity');
  if (mobile !== '' && !isValidMobile(mobile)) {
    throw apiError('invalidPhone', 'Invalid phone number: 8 to 15 digits with country code, no plus sign.');
  }
  if (email !== '' && !isValidEmail(email)) throw apiError('invalidEmail');
  const expirySeconds = parseExpiry(params.get('expiry'));
  if (expirySeconds === undefined) throw apiError('invalidExpiry');
  return { redirectUri, identities: identitiesOf(mobile, email), expirySeconds };
}

/** GET /auth/v1/authorize: one login, outbox entry and request entry per channel. */
export const sendMagicLink: Handler = (ctx, _req, res, query) => {
  const params = new URLSearchParams(query);
  const clientId = ctx.clients.require(params.get('client_id'), params.get('client_secret'));
  const { redirectUri, identities, expirySeconds } = parseSendQuery(params);
  const now = ctx.clock.now();
  const expiresAt = now + expirySeconds * 1000;
  const requestIds: MagicLinkRequestEntry[] = identities.map((identity) => {
    const link = { id: randomId(16), redirectUri, expiresAt };
    const login = newLogin(ctx, { clientId, identities: [identity], scenario: 'clean', link });
    ctx.store.add(login, now);
    const entry: OutboxEntry = {
      requestId: login.requestId,
      type: identity.type,
      to: identity.value,
      link: `${ctx.authUrl}${LINK_PREFIX}${link.id}`,
      redirectUri,
      expiresAt,
      sessionToken: login.sessionToken,
      createdAt: now,
    };
    ctx.store.addOutbox(entry, login);
    // The link holds a link id, never the code: safe to show a developer.
    ctx.log?.(
      `[otpless-emulator] ${identity.method} link to ${identity.value} (expires in ${expirySeconds} s): ${entry.link}`,
    );
    return identity.type === 'MOBILE'
      ? { type: identity.type, value: login.requestId, destinationUri: `https://wa.me/${identity.value}` }
      : { type: identity.type, value: login.requestId };
  });
  const body: SendMagicLinkResponse = { requestIds };
  sendJson(res, 200, body);
};
