import type { MagicLinkRequestEntry, SendMagicLinkResponse } from '../../wire/types.js';
import { arrayOf, isRecord, object, string, type Check } from './check.js';
import { identityType } from './identity.js';

/** Schemes a link to a messaging destination may use; anything else (`javascript:`) is dropped. */
const DESTINATION_SCHEMES = new Set(['https:', 'sms:', 'whatsapp:', 'viber:', 'tel:']);
const MAX_URI_LENGTH = 2048;

/**
 * `destinationUri` (spec 2.1) goes to the browser as a link: an absolute URL of a messaging
 * scheme, without control characters, or it is dropped (as any optional member that does not fit).
 */
const destinationUri: Check<string> = (v) => {
  // eslint-disable-next-line no-control-regex -- control characters are what it refuses
  if (typeof v !== 'string' || v.length > MAX_URI_LENGTH || /[\x00-\x20\x7f]/.test(v)) return notLink;
  try {
    return DESTINATION_SCHEMES.has(new URL(v).protocol) ? undefined : notLink;
  } catch {
    return notLink;
  }
};
const notLink = { path: '', expected: 'an https:, sms:, whatsapp:, viber: or tel: link' };

const entry = object<MagicLinkRequestEntry>({ type: identityType, value: string }, { destinationUri });

/** An entry of a type this release does not know (the service may add a channel): skipped, as unknown identity types are. */
function unknownType(item: unknown): boolean {
  return isRecord(item) && typeof item.type === 'string' && item.type !== 'MOBILE' && item.type !== 'EMAIL';
}

/** Send magic link: `requestIds` with at least one `{type, value}` of a known type (the request to bind to). */
export const sendMagicLinkResponse = object<SendMagicLinkResponse>({ requestIds: arrayOf(entry, 1, unknownType) }, {});
