import type { CodeIdentity, IdentityType, SessionIdentity, TokenIdentity } from '../../wire/types.js';
import { arrayOf, boolean, epochMs, isRecord, isoTime, mustFit, object, oneOf, string } from './check.js';

const IDENTITY_TYPES: readonly IdentityType[] = ['MOBILE', 'EMAIL'];

/** `identityType` is checked against the documented values: the type promises them. */
export const identityType = oneOf<IdentityType>(...IDENTITY_TYPES);
const methods = arrayOf(string);
// Whether an identity is verified decides a login: unreadable must not read as "not said".
const verified = mustFit(boolean);

/** Identity in validate-token: `verifiedAt` is an ISO string. */
export const tokenIdentity = object<TokenIdentity>(
  { identityType, identityValue: string },
  { channel: string, methods, verified, verifiedAt: isoTime },
);

/** Identity in verify-code: `verifiedTimestamp` is epoch ms; the older shape has `verifiedAt` (ISO) and `name`. */
export const codeIdentity = object<CodeIdentity>(
  { identityType, identityValue: string },
  { channel: string, methods, verified, verifiedTimestamp: epochMs, verifiedAt: isoTime, name: string },
);

/** Identity in session details: `verifiedAt` is epoch ms (a number, unlike validate-token). */
export const sessionIdentity = object<SessionIdentity>(
  { identityType, identityValue: string },
  { channel: string, methods, verifiedAt: epochMs, name: string },
);

/**
 * An entry of a type this release does not know (the service may add one): skipped, not fatal.
 * An entry without a string `identityType` is broken, not new, and fails the answer.
 */
function unknownType(entry: unknown): boolean {
  return (
    isRecord(entry) &&
    typeof entry.identityType === 'string' &&
    !(IDENTITY_TYPES as readonly string[]).includes(entry.identityType)
  );
}

/** Every operation that returns identities needs at least one it knows: it is who logged in. */
export const tokenIdentities = arrayOf(tokenIdentity, 1, unknownType);
export const codeIdentities = arrayOf(codeIdentity, 1, unknownType);
export const sessionIdentities = arrayOf(sessionIdentity, 1, unknownType);
