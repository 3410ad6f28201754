/**
 * `runCheck`: walks the unknowns of the real service against one account, each step feeding
 * the next (credentials, one send, the click, verify, enrichment, replay, the `+` probe), and
 * returns the findings with the settings they support. Pure orchestration: the person, the
 * terminal and the browser come in through `io`, so tests drive it in-process.
 */

import { OtplessClient } from '../client/index.js';
// The one thing the check takes from the strategy's side: the name of the parameter it relies on.
import { FLOW_PARAM } from '../flow/handoff.js';
import { EXPIRY_DEFAULT_SECONDS, EXPIRY_MAX_SECONDS } from '../wire/endpoints.js';
import { SERVICE_ERROR_CODES } from '../wire/serviceErrors.js';
import type { SecureInfo, SendMagicLinkResponse } from '../wire/types.js';
import { briefly, noObservations } from './answers.js';
import { checkCredentials } from './credentials.js';
import { checkEnrichment } from './enrich.js';
import { checkTokenTimestamp } from './tokenTimestamp.js';
import { cleanLandingUrl, landingFindings, type LandingReading, readLanding } from './landing.js';
import { linkTwice } from './linkTwice.js';
import { startListener } from './listener.js';
import { type CheckOptions, resolveCheckOptions, type ResolvedCheckOptions } from './options.js';
import { probePlus } from './plus.js';
import { recommend } from './recommend.js';
import { riskValues } from './riskValues.js';
import { sendLink } from './send.js';
import { checkLastActive } from './sessionActivity.js';
import {
  FINDING_KEYS,
  type CallbackParamFinding,
  type CheckReport,
  type FindingKey,
  type Observations,
  type ServiceAnswer,
} from './types.js';
import { checkReplay, compareRequestIds, verifyLinkCode, verifyShape } from './verify.js';
import { describeWait, type LandingSource, waitForLanding } from './wait.js';

/** The flow parameter's value in the check's redirect_uri (the strategy puts a random flow id there). */
export const PROBE_FLOW = 'otpless-check-probe';
/** The `+` probe's own value, so its link is never taken for the main one. */
const PLUS_FLOW = 'otpless-check-plus';

/** How the check meets the world outside the service. */
export interface CheckIO {
  /** A progress line for the person (never a secret, code or token). Default: nowhere. */
  say?: (line: string) => void;
  /**
   * Another way to the landing URL, raced with the local listener: a paste, or a test that
   * clicks the link. Required with `landingPage` (no listener then).
   */
  landing?: LandingSource;
  /**
   * How the check waits between the two validations of one token (and the two reads of a
   * session). Default: a timer (a test moves a clock).
   */
  pause?: (ms: number) => Promise<void>;
}

const timerPause = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** The report as it is filled in; a step that did not run leaves its finding out. */
interface Progress {
  o: ResolvedCheckOptions;
  client: OtplessClient;
  say: (line: string) => void;
  io: CheckIO;
  observed: Observations;
  found: Partial<Pick<CheckReport, FindingKey>>;
  /** Why the remaining steps did not run, once one stopped the walk. */
  stopped?: string;
}

/**
 * Runs every check and returns the report. Sends one real magic link (two with `probePlus`).
 * Throws `CheckOptionsError` for bad options and an Error when the listener cannot start;
 * whatever the service does is a finding, never a throw.
 *
 * @example
 * const report = await runCheck({ clientId, clientSecret, email: 'me@example.com' }, { say: console.error });
 * console.log(report.queryKept.kept, report.recommendations);
 */
export async function runCheck(options: CheckOptions, io: CheckIO = {}): Promise<CheckReport> {
  const o = resolveCheckOptions(options);
  if (o.landingPage !== undefined && io.landing === undefined) {
    throw new TypeError('runCheck: with landingPage there is no listener, so io.landing must give the landing URL');
  }
  const startedAt = new Date().toISOString();
  const client = new OtplessClient({
    clientId: o.clientId,
    clientSecret: o.clientSecret,
    authUrl: o.authUrl,
    userAuthUrl: o.userAuthUrl,
    timeoutMs: o.requestTimeoutMs,
  });
  const run: Progress = { o, client, say: io.say ?? (() => {}), io, observed: noObservations(), found: {} };
  try {
    await walk(run);
  } finally {
    await client.close();
  }
  return report(run, startedAt);
}

/** The steps in order; each returns early (with `stopped` set) when the next cannot run. */
async function walk(run: Progress): Promise<void> {
  const { o, client, say, found, observed } = run;
  say('Checking the credentials (verify-code with a nonsense code: nothing is sent)...');
  found.credentials = await checkCredentials(client, observed);
  say(`  credentials: ${found.credentials.answer}`);
  if (!found.credentials.accepted) {
    run.stopped =
      found.credentials.accepted === false ? 'the credentials were refused' : 'the credentials could not be checked';
    return;
  }
  if (o.sessionToken !== undefined) {
    say('Reading your session twice, apart in time, to see whether reading moves lastActiveAt...');
    found.lastActiveAt = await checkLastActive(client, o.sessionToken, observed, run.io.pause ?? timerPause);
  }
  const listener = o.landingPage === undefined ? await startListener(o.port, FLOW_PARAM) : undefined;
  try {
    const base = listener?.callbackUrl ?? o.landingPage!.href;
    const expiry = linkExpiry(o.clickTimeoutMs);
    const redirectUri = withFlow(base, PROBE_FLOW);
    const plan = { email: o.email, mobile: o.mobile, channel: o.channel, redirectUri, expiry };
    const sent = await sendLink(client, plan, observed);
    found.channel = sent.channel;
    if (!sent.sent) {
      found.callbackParam = sendFailure(sent.error);
      run.stopped = 'no link was sent';
      return;
    }
    say(`Sent a magic link to the ${sent.sentTo.join(' and the ')}; it lands on ${redirectUri}`);
    const link = { redirectUri, sentTo: sent.sentTo, listening: listener !== undefined, timeoutMs: o.clickTimeoutMs };
    const landing = await waitForLanding(listener, run.io.landing, link);
    if (landing === undefined) {
      found.callbackParam = {
        outcome: 'failed',
        answer: `the link was not opened within ${describeWait(o.clickTimeoutMs)}`,
      };
      run.stopped = 'no landing URL';
    } else if (o.openTwice) {
      say('Now open the SAME link again: the first opening played a mail scanner, this one is yours.');
      const again = listener ? { ...listener, landed: listener.second } : undefined;
      const second = await waitForLanding(again, run.io.landing, { ...link, again: true });
      await fromLanding(run, landing, sent.sent, second ?? null);
    } else {
      await fromLanding(run, landing, sent.sent);
    }
    if (o.probePlus) {
      say('Sending a second link, with + in mobile_number (--probe-plus)...');
      const plus = {
        authUrl: o.authUrl,
        clientId: o.clientId,
        clientSecret: o.clientSecret,
        mobileDigits: o.mobile!,
        channel: o.channel,
        redirectUri: withFlow(base, PLUS_FLOW),
        expiry,
        timeoutMs: o.requestTimeoutMs,
      };
      found.plusSign = await probePlus(plus, observed);
    }
  } finally {
    await listener?.close();
  }
}

/** A landing URL as read, or `undefined` when what was given is not a URL. */
function readGiven(text: string): LandingReading | undefined {
  const url = cleanLandingUrl(text);
  return url ? readLanding(url, FLOW_PARAM, PROBE_FLOW) : undefined;
}

/**
 * What the landing URL says, then verify, enrichment and replay with its code. With the link
 * opened twice (`secondText`: `null` when the second opening never landed), the first landing
 * played a mail scanner: the second one's code is verified when it has one.
 */
async function fromLanding(
  run: Progress,
  landingText: string,
  sent: SendMagicLinkResponse,
  secondText?: string | null,
): Promise<void> {
  const { client, say, found, observed } = run;
  const first = readGiven(landingText);
  if (!first) {
    found.callbackParam = { outcome: 'failed', answer: 'what was given as the landing URL is not a URL' };
    run.stopped = 'no landing URL';
    return;
  }
  const second = typeof secondText === 'string' ? readGiven(secondText) : undefined;
  const reading = second?.code !== undefined ? second : first;
  Object.assign(found, landingFindings(reading, FLOW_PARAM));
  say(`  landed: the code's parameter is ${found.callbackParam?.answer}; query ${found.queryKept?.answer}`);
  if (reading.code === undefined) {
    run.stopped = 'no code in the landing URL';
    return;
  }
  say('Verifying the code...');
  const verified = await verifyLinkCode(client, reading.code, observed);
  found.codeAccepted = verified.codeAccepted;
  if (secondText !== undefined) {
    found.linkTwice = linkTwice(first, second, reading === second ? verified.codeAccepted : undefined);
  }
  if (!verified.verification) {
    run.stopped = 'verify-code did not accept the code';
    return;
  }
  found.verifyShape = verifyShape(verified.verification);
  found.requestIds = compareRequestIds(sent, verified.verification);
  say('Trying its token on validate-token, secure-info and userInfo...');
  const token = verified.verification.userDetails.token;
  const signals: Array<SecureInfo | undefined> = [];
  found.enrichment = await checkEnrichment(client, token, observed, (s) => signals.push(s));
  if (found.enrichment.validateToken?.accepted) {
    say('Validating the token twice, apart in time, to see what its timestamp and verifiedAt stamp...');
    const twice = await checkTokenTimestamp(client, token, observed, run.io.pause ?? timerPause);
    found.tokenTimestamp = twice.tokenTimestamp;
    found.verifiedAt = twice.verifiedAt;
    signals.push(...twice.answers.map((answer) => answer.secureInfo));
  }
  if (found.enrichment.validateToken?.accepted || found.enrichment.secureInfo?.accepted) {
    found.riskValues = riskValues(signals);
    say(`  risk signals: ${found.riskValues.answer}`);
  }
  say('Verifying the same code again...');
  found.replay = await checkReplay(client, reading.code, observed);
}

/** The callback finding when no link went out: the service's refusal of our redirect URI named as such. */
function sendFailure(error: ServiceAnswer | undefined): CallbackParamFinding {
  const base = { outcome: 'failed' as const, ...(error ? { sendError: error } : {}) };
  if (error?.errorCode === SERVICE_ERROR_CODES.invalidRedirectUri) {
    return { ...base, answer: `no link was sent: the service refused the redirect URI (${briefly(error)})` };
  }
  return { ...base, answer: `no link was sent: ${error ? briefly(error) : 'the send failed'}` };
}

/** Fills the steps that did not run, adds the recommendations, and says whether all ran. */
function report(run: Progress, startedAt: string): CheckReport {
  const { o, found } = run;
  const why = (key: FindingKey): string => {
    if (key === 'channel' && o.mobile === undefined) return 'not tried: no --mobile given';
    if (key === 'plusSign' && !o.probePlus) return 'not tried: it sends a second message (--probe-plus)';
    if (key === 'linkTwice' && !o.openTwice) return 'not tried: it asks you to open the link twice (--open-twice)';
    if (key === 'lastActiveAt' && o.sessionToken === undefined) {
      return 'not tried: no session token given (OTPLESS_SESSION_TOKEN)';
    }
    if (key === 'riskValues' && found.enrichment?.outcome !== undefined && found.enrichment.outcome !== 'skipped') {
      return 'not run: validate-token and secure-info refused the token';
    }
    return `not run: ${run.stopped ?? 'an earlier step stopped'}`;
  };
  const findings = Object.fromEntries(
    FINDING_KEYS.map((key) => [key, found[key] ?? { outcome: 'skipped', answer: why(key) }]),
  ) as Pick<CheckReport, FindingKey>;
  const base = {
    version: 1 as const,
    authUrl: o.authUrl,
    userAuthUrl: o.userAuthUrl,
    startedAt,
    finishedAt: new Date().toISOString(),
    ...findings,
    observed: run.observed,
  };
  const failed = FINDING_KEYS.some((key) => findings[key].outcome === 'failed');
  return { ...base, recommendations: recommend(base), complete: !failed && findings.credentials.accepted === true };
}

/** `base` with the flow parameter set (a query it has is kept), as the strategy builds its redirect_uri. */
function withFlow(base: string, value: string): string {
  const url = new URL(base);
  url.searchParams.set(FLOW_PARAM, value);
  return url.href;
}

/** The link must outlive the wait for the click (the service's default 300 s at least). */
function linkExpiry(clickTimeoutMs: number): number {
  return Math.min(EXPIRY_MAX_SECONDS, Math.max(EXPIRY_DEFAULT_SECONDS, Math.ceil(clickTimeoutMs / 1000)));
}
