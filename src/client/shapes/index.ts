/**
 * Runtime checks of every response, one per operation.
 *
 * Required fields are exactly those the wire types in src/wire/types.ts declare required, so a
 * checked result never lies about its static type (the compiler checks each shape against its
 * type: relaxing a field means making it optional in types.ts, then moving it to the optional
 * map here). On top of that, what the login needs:
 * - sendMagicLink: `requestIds` has at least one `{type: MOBILE|EMAIL, value}`;
 * - verifyCode, validateToken, sessionDetails: `identities` has at least one entry, each with
 *   `identityType` MOBILE|EMAIL, a string `identityValue` and, when present, a boolean
 *   `verified`; entries of an identity type this release does not know are skipped;
 * - secureInfo: `secure_info` is an object;
 * - userInfo: every field is optional, but `email` or `phone_number` must be a non-empty string.
 * Optional fields are type-checked when present (`verifiedAt`: a string in validateToken, a
 * number in sessionDetails); one that does not fit is dropped and reads as absent, so a stray
 * device or location field never fails a login, and a dropped risk signal reads as malformed.
 * See check.ts for the whole policy (null, unknown fields, `mustFit`).
 */
export { type Check, type Mismatch, describeMismatch } from './check.js';
export { sendMagicLinkResponse } from './sendMagicLink.js';
export { codeVerificationResult } from './codeVerification.js';
export { userInfo } from './userInfo.js';
export { tokenValidationResult } from './tokenValidation.js';
export { secureInfoResult } from './secureInfoResult.js';
export { sessionDetails } from './sessionDetails.js';
