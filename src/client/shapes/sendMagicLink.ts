import type { MagicLinkRequestEntry, SendMagicLinkResponse } from '../../wire/types.js';
import { arrayOf, object, string } from './check.js';
import { identityType } from './identity.js';

const entry = object<MagicLinkRequestEntry>({ type: identityType, value: string }, { destinationUri: string });

/** Send magic link: `requestIds` with at least one `{type, value}` (the request to bind to). */
export const sendMagicLinkResponse = object<SendMagicLinkResponse>({ requestIds: arrayOf(entry, 1) }, {});
