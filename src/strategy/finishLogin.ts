import { channels } from '../diagnostics.js';
import type { LoginSetup } from '../login/compose.js';
import { assessRisk } from '../risk/index.js';
import type { RiskVerdict } from '../risk/index.js';
import { rememberLinkLogin } from '../passkey/grant.js';
import { buildLoginRecord, writeRecordOnLogin } from '../session/loginRecord.js';
import type { HttpRequest } from '../web/request.js';
import type { CodeVerificationResult } from '../wire/types.js';
import { enrichLogin } from '../login/enrich.js';
import type { Enrichments } from '../login/enrich.js';
import type { CallbackFailureCode } from '../errors/callbackCodes.js';
import { buildProfile, riskSignalsOf } from './profile.js';
import type { MagicLinkHandoff } from './profile.js';
import { runVerify } from './verify.js';
import type { VerifyFunction, VerifyFunctionWithRequest } from './verify.js';

/** What a path of the callback hands on once the person is verified. */
export interface VerifiedLogin {
  viaToken: boolean;
  /** A login by the service's session token (get-session-details). */
  viaSession?: boolean;
  token: string;
  verification: CodeVerificationResult | undefined;
  enrichments: Enrichments;
  handoff?: MagicLinkHandoff | undefined;
  /** Hashes of the destinations this browser's send went to (see `PendingRequest.destinationHashes`). */
  sentTo?: readonly string[] | undefined;
  /** Epoch ms the signals describe: the service's authentication time on the token path. */
  signalsAt?: number | undefined;
}

/** How a verified login ends: a user for Passport, or a refusal. */
export type LoginOutcome = { user: object; info: object | undefined } | { refused: CallbackFailureCode; info?: object };

/**
 * A verified code with the enrichments the strategy asks for. The link's token is spent with
 * the code: POSTed later as a frontend token, it is refused. Marking it needs none of the
 * enrichments, so both run at once (a shared store's round trip beside the service's); a store
 * that fails still fails the login. A handoff's token was spent by the approval, before it was
 * stored.
 */
export async function enrichedLogin(
  settings: LoginSetup,
  verification: CodeVerificationResult,
  handoff: MagicLinkHandoff | undefined,
  sentTo: readonly string[] | undefined,
  spendToken: (token: string) => Promise<boolean>,
): Promise<VerifiedLogin> {
  const token = verification.userDetails.token;
  const spent = handoff ? undefined : spendToken(token);
  const wanted = settings.enrich;
  // No enrichment asked (the default): the mark alone, not a Promise.all around nothing.
  let enrichments: Enrichments = {};
  if (wanted.size === 0) await spent;
  else [, enrichments] = await Promise.all([spent, enrichLogin(settings.client, token, wanted)]);
  return { viaToken: false, token, verification, enrichments, handoff, sentTo };
}

/**
 * Judges the signals, builds the profile, asks the app's `verify`, and writes the login record
 * the guards read; the caller hands the user to Passport.
 */
export async function finishLogin(
  settings: LoginSetup,
  verify: VerifyFunction | VerifyFunctionWithRequest,
  req: HttpRequest,
  login: VerifiedLogin,
): Promise<LoginOutcome> {
  const risk = assess(settings, login.viaToken, login.enrichments);
  // The send's destinations are keyed digests under the key the send was sealed with.
  const profile = buildProfile(
    { verification: login.verification, ...login.enrichments },
    risk,
    login.sentTo,
    settings.secrets.recordKey.key,
  );
  if (!profile) return { refused: 'NO_VERIFIED_IDENTITY' };
  if (login.handoff) profile.handoff = login.handoff;
  const { user, info } = await runVerify(verify, settings.passReqToCallback, req, profile);
  if (!user) return info ? { refused: 'USER_REFUSED', info } : { refused: 'USER_REFUSED' };
  const record = buildLoginRecord(req, profile, risk, login.token, login.signalsAt ?? Date.now());
  if (login.handoff) record.handoff = true;
  if (login.viaSession) record.via = 'session';
  writeRecordOnLogin(req, record, settings.secrets.recordKey);
  // What a link login verified, for the passkey offer a mount with passkeys makes after it.
  if (!login.viaSession && settings.offersPasskeys) rememberLinkLogin(req, profile);
  // Send limits: a login that went through clears the send counts of what it verified (best effort).
  const limiter = settings.limiter;
  if (limiter) {
    const resets: Array<Promise<void>> = [];
    for (const i of profile.identities) if (i.verified) resets.push(limiter.resetDestination(i.value).catch(ignore));
    // Most logins verify one identity: its reset awaited alone, not through Promise.all.
    if (resets.length === 1) await resets[0];
    else if (resets.length > 1) await Promise.all(resets);
  }
  if (channels.loginSucceeded.hasSubscribers) {
    channels.loginSucceeded.publish({
      via: login.handoff ? 'handoff' : login.viaToken ? 'token' : 'code',
      verified: record.verified,
      ...(risk ? { risk: risk.action } : {}),
    });
  }
  return { user, info };
}

const ignore = (): undefined => undefined;

/** A verdict whenever signals were asked for; none when no call could have returned them. */
function assess(settings: LoginSetup, viaToken: boolean, enrichments: Enrichments): RiskVerdict | undefined {
  const asked = viaToken || settings.enrich.has('validateToken') || settings.enrich.has('secureInfo');
  if (!asked) return undefined;
  return assessRisk(riskSignalsOf(enrichments), settings.riskPolicy);
}
