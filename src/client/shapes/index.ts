/**
 * Runtime checks of every response, one per operation.
 *
 * Required fields are exactly those the wire types in src/wire/types.ts declare required, so a
 * checked result never lies about its static type (the compiler checks each shape against its
 * type: relaxing a field means making it optional in types.ts, then moving it to the optional
 * map here). On top of that, what the login needs:
 * - sendMagicLink: `requestIds` has at least one `{type: MOBILE|EMAIL, value}`;
 * - verifyCode, validateToken, sessionDetails: `identities` has at least one entry, each with
 *   `identityType` MOBILE|EMAIL and a string `identityValue`;
 * - userInfo: every field is optional, but `email` or `phone_number` must be a non-empty string.
 * Optional fields are type-checked when present (`verifiedAt`: a string in validateToken, a
 * number in sessionDetails). See check.ts for the policy on null and unknown fields.
 */
export { type Check, type Mismatch, describeMismatch } from './check.js';
export { sendMagicLinkResponse } from './sendMagicLink.js';
export { codeVerificationResult } from './codeVerification.js';
export { userInfo } from './userInfo.js';
export { tokenValidationResult } from './tokenValidation.js';
export { secureInfoResult } from './secureInfoResult.js';
export { sessionDetails } from './sessionDetails.js';
