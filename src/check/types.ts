/**
 * What `otpless-check` finds out about an account: one finding per unknown of the real service
 * (service-facts.md, "Unknowns only the real service can settle"), plus what it saw on the way.
 * Plain data, so the report prints as a table or as JSON. Never a secret, a code or a token:
 * at most whether one was present, and its length.
 */

import type { MagicLinkChannel } from '../wire/types.js';

/**
 * How a finding came out:
 * - `expected`: as the library assumes (and the service's docs suggest);
 * - `unexpected`: the other way (the emulator's quirk of that name reproduces it);
 * - `skipped`: not run (not asked for, or an earlier step did not give what it needs);
 * - `failed`: could not run (network, timeout, an answer that says nothing either way).
 */
export type Outcome = 'expected' | 'unexpected' | 'skipped' | 'failed';

/** An answer of the service as it can be shown: status and codes, no secret, code or token. */
export interface ServiceAnswer {
  /**
   * `api` (the service answered an error), `not-success` (a 200 whose `status` is not SUCCESS),
   * `timeout`, `network`, `bad-response` or `input`.
   */
  kind: 'api' | 'not-success' | 'timeout' | 'network' | 'bad-response' | 'input';
  /** For `not-success`: the state the service gave. */
  serviceStatus?: string;
  /** HTTP status, when one came back. */
  status?: number;
  errorCode?: string;
  /** The service's `message` (a short label such as "Access blocked"), redacted. */
  serviceMessage?: string;
  /** One line saying what happened, redacted (the client's errors never carry a secret, code or token). */
  text: string;
}

/** Every finding has an outcome and one human sentence. */
export interface FindingBase {
  outcome: Outcome;
  /** The answer in one sentence, e.g. "the flow parameter came back". */
  answer: string;
}

export interface CredentialsFinding extends FindingBase {
  /** `true`: the service judged the nonsense code (credentials fine); `false`: it refused the app. */
  accepted?: boolean;
  /** What verify-code answered to the nonsense code. */
  probe?: ServiceAnswer;
}

export interface ChannelFinding extends FindingBase {
  /** The channel the mobile link was sent with. */
  channel?: MagicLinkChannel;
  /** `destinationUri` of the MOBILE entry (the service's WhatsApp number, not the user's), or null when absent. */
  destinationUri?: string | null;
  /** The send's error, when it failed. */
  error?: ServiceAnswer;
}

export interface CallbackParamFinding extends FindingBase {
  /** The query (or fragment) parameter that carried the code. */
  name?: string;
  /** Where it came: the query string, or the fragment (seen only when pasted or by the listener's page script). */
  via?: 'query' | 'fragment';
  /** Names of every parameter the landing URL had (values never shown). */
  params?: string[];
  /** Length of the code, never the code. */
  codeLength?: number;
  /** Why no link went out, when the send failed (e.g. 7108: the redirect URI is not allowed). */
  sendError?: ServiceAnswer;
}

export interface QueryKeptFinding extends FindingBase {
  /** The `flow` parameter came back with the value sent. */
  kept?: boolean;
  /** What came back under `flow`: the value sent, another value, or nothing. */
  flow?: 'same' | 'other' | 'absent';
}

export interface CodeAcceptedFinding extends FindingBase {
  accepted?: boolean;
  error?: ServiceAnswer;
}

export interface RequestIdsFinding extends FindingBase {
  /** verify-code's `requestId` is one of the send's `requestIds[].value`. */
  equal?: boolean;
  /** One id shared by every channel of a send, one per channel, or one channel sent (cannot tell). */
  perChannel?: 'shared' | 'separate' | 'single';
  /** How many entries the send answered. */
  sendEntries?: number;
}

export interface VerifyShapeFinding extends FindingBase {
  /** current: `completedAt` / `verifiedTimestamp`; legacy: `timestamp` / `verifiedAt`. */
  shape?: 'current' | 'legacy' | 'mixed' | 'unknown';
  /** Which of the telling fields were present. */
  fields?: string[];
  /** A token came back (its length, never the token). */
  tokenLength?: number;
}

export interface ReplayFinding extends FindingBase {
  /** `true` when the used code was refused, as it must be. */
  refused?: boolean;
  /** What the second verify answered. */
  response?: ServiceAnswer;
}

/** One enrichment call made with verify-code's token. */
export interface EnrichCall {
  accepted: boolean;
  error?: ServiceAnswer;
}

export interface EnrichmentFinding extends FindingBase {
  validateToken?: EnrichCall;
  secureInfo?: EnrichCall;
  userInfo?: EnrichCall;
}

export interface TokenTimestampFinding extends FindingBase {
  /** What validate-token's `timestamp` stamps: the sign-in, each answer, or nothing readable. */
  meaning?: 'signIn' | 'answer' | 'absent';
  /** How far it moved between the two validations, when it moved. */
  movedMs?: number;
  /** Whether the identities carried a readable `verifiedAt` (what the age check rests on). */
  verifiedAt?: boolean;
}

export interface VerifiedAtFinding extends FindingBase {
  /** What the identities' `verifiedAt` stamps: the sign-in (stays put), each answer (moves), or nothing readable. */
  meaning?: 'signIn' | 'answer' | 'absent';
  /** How far it moved between the two validations, when it moved. */
  movedMs?: number;
}

export interface LastActiveFinding extends FindingBase {
  /** What get-session-details' `lastActiveAt` counts: moved by the read itself, or left by it. */
  meaning?: 'read' | 'activity' | 'absent';
  /** How far it moved between the two reads, when it moved. */
  movedMs?: number;
  /** Whether `startedAt` (what the session-token age rests on) stayed put across the reads. */
  startedAtSteady?: boolean;
}

/** The lowest and highest value seen of one score, over every answer that carried it. */
export interface ScoreRange {
  /** Absent when no value was a number. */
  min?: number;
  max?: number;
  /** How many answers carried a number. */
  seen: number;
  /** Values that were not numbers (shown as JSON, at most 40 characters each). */
  notNumbers?: string[];
}

export interface RiskValuesFinding extends FindingBase {
  /** How many answers carried risk signals (validate-token's `secureInfo`, secure-info's `secure_info`). */
  answers?: number;
  /** Every distinct raw `bot.result` seen, as JSON (a string in quotes; at most 40 characters each). */
  botResults?: string[];
  confidenceScore?: ScoreRange;
  anomalyScore?: ScoreRange;
}

export interface LinkTwiceFinding extends FindingBase {
  /** The second opening of the link landed with a code. */
  secondLanded?: boolean;
  /** The second landing carried the same code as the first, another one, or none. */
  secondCode?: 'same' | 'other' | 'none';
  /** verify-code took the second landing's code (the person's, after a scanner's GET). */
  secondAccepted?: boolean;
  /** What verify-code answered to the second code, when it refused it. */
  error?: ServiceAnswer;
}

export interface PlusSignFinding extends FindingBase {
  /** `true` when authorize took `mobile_number=+...` and sent a link. */
  accepted?: boolean;
  status?: number;
  errorCode?: string;
}

/** Service behaviour seen on the way, worth knowing although no check asked for it. */
export interface Observations {
  /** Calls whose error came with HTTP 200 (`{message, errorCode, description}` in a 200). */
  errorWith200: string[];
  /** Calls answered 401 without an `errorCode`. */
  noErrorCodeOn401: string[];
}

/** One line of advice: which setting of the strategy works for this account. */
export interface Recommendation {
  topic:
    | 'credentials'
    | 'binding'
    | 'enrich'
    | 'channel'
    | 'callback'
    | 'replay'
    | 'shape'
    | 'errors'
    | 'session'
    | 'risk'
    | 'scanner';
  text: string;
}

/** Everything `runCheck` found. */
export interface CheckReport {
  /** Bumped when a field changes meaning. */
  version: 1;
  authUrl: string;
  userAuthUrl: string;
  startedAt: string;
  finishedAt: string;
  credentials: CredentialsFinding;
  channel: ChannelFinding;
  callbackParam: CallbackParamFinding;
  queryKept: QueryKeptFinding;
  codeAccepted: CodeAcceptedFinding;
  requestIds: RequestIdsFinding;
  verifyShape: VerifyShapeFinding;
  replay: ReplayFinding;
  enrichment: EnrichmentFinding;
  tokenTimestamp: TokenTimestampFinding;
  verifiedAt: VerifiedAtFinding;
  lastActiveAt: LastActiveFinding;
  riskValues: RiskValuesFinding;
  linkTwice: LinkTwiceFinding;
  plusSign: PlusSignFinding;
  observed: Observations;
  recommendations: Recommendation[];
  /** Every check that was asked for ran, and the credentials were accepted. */
  complete: boolean;
}

/** The names of the findings, in report order. */
export const FINDING_KEYS = [
  'credentials',
  'channel',
  'callbackParam',
  'queryKept',
  'codeAccepted',
  'requestIds',
  'verifyShape',
  'replay',
  'enrichment',
  'tokenTimestamp',
  'verifiedAt',
  'lastActiveAt',
  'riskValues',
  'linkTwice',
  'plusSign',
] as const satisfies ReadonlyArray<keyof CheckReport>;

export type FindingKey = (typeof FINDING_KEYS)[number];
