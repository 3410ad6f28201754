import type { MagicLinkRequestEntry, SendMagicLinkResponse } from '../../wire/types.js';
import { EMULATOR_WHATSAPP_NUMBER } from '../config.js';
import { apiError } from '../errors.js';
import { sendJson } from '../http.js';
import { LINK_PREFIX } from '../devPaths.js';
import { randomId } from '../ids.js';
import { identitiesOf, newLogin, newRequestId, PHONE_CHANNELS, type PhoneChannel } from '../logins.js';
import type { OutboxEntry } from '../types.js';
import { isValidEmail, isValidMobile, isValidRedirectUri, parseExpiry } from '../validation.js';
import type { Handler } from './types.js';

/** `channel` of the send (WHATSAPP when absent or empty); anything else is 7103. */
function parseChannel(value: string | null): PhoneChannel {
  if (value === null || value === '') return 'WHATSAPP';
  const channel = PHONE_CHANNELS.find((candidate) => candidate === value);
  if (!channel) throw apiError('invalidPhoneChannel');
  return channel;
}

/** Checks the query like the service does (section 4.1, service-facts.md); throws the matching 400. */
function parseSendQuery(params: URLSearchParams) {
  const redirectUri = params.get('redirect_uri') ?? '';
  if (!isValidRedirectUri(redirectUri)) throw apiError('invalidRedirectUri');
  const mobile = params.get('mobile_number') ?? '';
  const email = (params.get('email') ?? '').trim();
  if (mobile === '' && email === '') throw apiError('invalidPhoneOrEmail');
  if (mobile !== '' && !isValidMobile(mobile)) throw apiError('invalidPhone');
  if (email !== '' && !isValidEmail(email)) throw apiError('invalidEmail');
  const channel = parseChannel(params.get('channel'));
  const expirySeconds = parseExpiry(params.get('expiry'));
  if (expirySeconds === undefined) throw apiError('invalidExpiry');
  return { redirectUri, identities: identitiesOf(mobile, email, channel), expirySeconds };
}

/**
 * GET /auth/v1/authorize: one login (own link, code and session token) and outbox entry per
 * channel, all answering ONE request id shared by the MOBILE and EMAIL entries, like the
 * service's example (the `separateRequestIds` quirk gives each its own).
 */
export const sendMagicLink: Handler = (ctx, _req, res, query) => {
  const params = new URLSearchParams(query);
  const clientId = ctx.clients.require(params.get('client_id'), params.get('client_secret'));
  const { redirectUri, identities, expirySeconds } = parseSendQuery(params);
  const now = ctx.clock.now();
  const expiresAt = now + expirySeconds * 1000;
  const sharedRequestId = newRequestId();
  const requestIds: MagicLinkRequestEntry[] = identities.map((identity) => {
    const link = { id: randomId(16), redirectUri, expiresAt };
    const requestId = ctx.quirks.separateRequestIds ? newRequestId() : sharedRequestId;
    const login = newLogin(ctx, { clientId, identities: [identity], scenario: 'clean', link, requestId });
    ctx.store.add(login, now);
    const entry: OutboxEntry = {
      requestId,
      type: identity.type,
      channel: identity.method,
      to: identity.value,
      link: `${ctx.authUrl}${LINK_PREFIX}${link.id}`,
      redirectUri,
      expiresAt,
      sessionToken: login.sessionToken,
      createdAt: now,
    };
    if (ctx.faults.takeNotDelivered(identity.method)) {
      // Answered as sent, never delivered: the service's 200 with nothing on the phone.
      ctx.store.addNotDelivered(entry);
      ctx.log?.(`[otpless-emulator] ${identity.method} link to ${identity.value} NOT delivered (notDelivered fault)`);
    } else {
      ctx.store.addOutbox(entry, login);
      // The link holds a link id, never the code: safe to show a developer.
      ctx.log?.(
        `[otpless-emulator] ${identity.method} link to ${identity.value} (expires in ${expirySeconds} s): ${entry.link}`,
      );
    }
    // On every MOBILE entry (spec 2.1): the service's own number on the channel used.
    if (identity.type !== 'MOBILE') return { type: identity.type, value: requestId };
    const destinationUri =
      identity.method === 'WHATSAPP' ? `https://wa.me/${EMULATOR_WHATSAPP_NUMBER}` : `sms:+${EMULATOR_WHATSAPP_NUMBER}`;
    return { type: identity.type, value: requestId, destinationUri };
  });
  const body: SendMagicLinkResponse = { requestIds };
  sendJson(res, 200, body);
};
