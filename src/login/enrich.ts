import type { OtplessClient } from '../client/index.js';
import type { SecureInfoResult, SessionDetails, TokenValidationResult, UserInfo } from '../wire/types.js';
import type { Enrichment } from './options.js';
import { warnIfCredentials } from './failures.js';

export interface Enrichments {
  tokenValidation?: TokenValidationResult;
  secureInfo?: SecureInfoResult;
  userInfo?: UserInfo;
  /** The service session's details, on a login by session token. */
  sessionDetails?: SessionDetails;
}

/**
 * Makes the asked-for enrichment calls for a login's token, all at once: a login waits for the
 * slowest call, not for the sum. A failed validate-token or secure-info fails the login (the
 * caller asked for those details and must not get a login without them); user info is a
 * nicety, so its failure is dropped and the login goes on without it.
 */
export async function enrichLogin(
  client: OtplessClient,
  token: string,
  wanted: ReadonlySet<Enrichment>,
): Promise<Enrichments> {
  const [tokenValidation, secureInfo, userInfo] = await Promise.all([
    wanted.has('validateToken') ? client.validateToken(token) : undefined,
    wanted.has('secureInfo') ? client.getSecureInfo(token) : undefined,
    // Optional: its failure is dropped, but refused credentials still reach the operator.
    wanted.has('userInfo') ? client.getUserInfo(token).catch((err: unknown) => void warnIfCredentials(err)) : undefined,
  ]);
  const out: Enrichments = {};
  if (tokenValidation) out.tokenValidation = tokenValidation;
  if (secureInfo) out.secureInfo = secureInfo;
  if (userInfo) out.userInfo = userInfo;
  return out;
}
