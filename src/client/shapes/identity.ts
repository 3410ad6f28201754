import type { CodeIdentity, IdentityType, SessionIdentity, TokenIdentity } from '../../wire/types.js';
import { arrayOf, boolean, number, object, oneOf, string } from './check.js';

/** `identityType` is checked against the documented values: the type promises them. */
export const identityType = oneOf<IdentityType>('MOBILE', 'EMAIL');
const methods = arrayOf(string);

/** Identity in validate-token: `verifiedAt` is an ISO string. */
export const tokenIdentity = object<TokenIdentity>(
  { identityType, identityValue: string },
  { channel: string, methods, verified: boolean, verifiedAt: string },
);

/** Identity in verify-code: `verifiedTimestamp` is epoch ms. */
export const codeIdentity = object<CodeIdentity>(
  { identityType, identityValue: string },
  { channel: string, methods, verified: boolean, verifiedTimestamp: number },
);

/** Identity in session details: `verifiedAt` is epoch ms (a number, unlike validate-token). */
export const sessionIdentity = object<SessionIdentity>(
  { identityType, identityValue: string },
  { channel: string, methods, verifiedAt: number, name: string },
);

/** Every operation that returns identities needs at least one: it is who logged in. */
export const tokenIdentities = arrayOf(tokenIdentity, 1);
export const codeIdentities = arrayOf(codeIdentity, 1);
export const sessionIdentities = arrayOf(sessionIdentity, 1);
