/**
 * Runtime checks of every response, one per operation.
 *
 * Required fields are exactly those the wire types in src/wire/types.ts declare required, so a
 * checked result never lies about its static type; on top of that, `requestIds` and
 * `identities` must be non-empty and userInfo must name an e-mail or a phone number, since the
 * login needs them. Optional fields are type-checked when present. See check.ts for the policy.
 */
export { type Check, type Mismatch, describeMismatch } from './check.js';
export { sendMagicLinkResponse } from './sendMagicLink.js';
export { codeVerificationResult } from './codeVerification.js';
export { userInfo } from './userInfo.js';
export { tokenValidationResult } from './tokenValidation.js';
export { secureInfoResult } from './secureInfoResult.js';
export { sessionDetails } from './sessionDetails.js';
