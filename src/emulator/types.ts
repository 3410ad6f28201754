import type { DeliveryMethod, IdentityType } from '../wire/types.js';
import type { ClockMode } from './clock.js';
import type { ServiceFaultError } from './errors.js';
import type { RiskScenario } from './scenarios.js';

/** A client the emulator accepts: its id and secret. */
export interface EmulatorClient {
  clientId: string;
  clientSecret: string;
}

/** Options of {@link startEmulator}; every member is optional. */
export interface EmulatorOptions {
  /** Accepted clients. Default: `[EMULATOR_DEFAULT_CLIENT]`. */
  clients?: readonly EmulatorClient[];
  /** Interface to listen on. Default `127.0.0.1`. */
  host?: string;
  /** Port of the auth host (send, verify code, userInfo, dev inbox). Default 0 (any free port). */
  authPort?: number;
  /** Port of the user-auth host (validate token, secure info, session details). Default 0. */
  userAuthPort?: number;
  /**
   * The emulator is quiet by default: it logs each sent link only when `log` is given, or when
   * `quiet: false` asks for `console.log`. `quiet: true` silences it even when `log` is given.
   */
  quiet?: boolean;
  /** Where link lines go (see `quiet`). Never receives a code, token or secret. */
  log?: (line: string) => void;
  /** Latency added to every service endpoint, in ms (benchmarks use 50). Default 0. */
  baseDelayMs?: number;
  /** Token lifetime after a login completes, on the emulator clock. Default 15 minutes. */
  tokenTtlMs?: number;
  /** A session token stays valid this long after its last use. Default 30 minutes. */
  sessionIdleMs?: number;
  /** Most outbox entries kept (newest win). Default 1000. */
  maxOutbox?: number;
  /** Most logins kept (newest win). Default 10000. */
  maxLogins?: number;
  /**
   * 'real' (default): the clock runs, `advanceTime` adds to it. 'manual': the clock stands
   * still from the start and moves only by `advanceTime`, for exact expiry boundaries.
   */
  clock?: ClockMode;
  /** Behave as the service would if an unknown went the other way; see {@link EmulatorQuirks}. */
  quirks?: EmulatorQuirks;
  /**
   * The emulator refuses to start when `NODE_ENV` is `production` (it accepts fixed credentials
   * and hands a login to whoever opens a link). `true` starts it anyway.
   */
  allowInProduction?: boolean;
  /**
   * For tests only: the JSON outbox (`/__emulator/outbox`) shows each entry's `sessionToken`.
   * Default false: no page or JSON of the emulator shows a session token (`emulator.outbox()`,
   * in the process that started it, always has them).
   */
  exposeSessionTokens?: boolean;
  /**
   * Extra names the `Host` header may carry (with the port), e.g. a Docker service name. Always
   * accepted: 127.0.0.1, localhost, [::1] and `host`; when `host` is a wildcard (0.0.0.0, ::),
   * also this machine's addresses and host name. Any other Host is answered 421 (EMU-421), so a
   * web page cannot reach the outbox or dev inbox through DNS rebinding.
   */
  allowedHosts?: readonly string[];
}

/**
 * Switches that make the emulator behave as the real service would if one of the unknowns of
 * service-facts.md went the other way. All off by default; set at start (`quirks`) or at any
 * time with `emulator.setQuirks()`.
 */
export interface EmulatorQuirks {
  /** verify-code answers a `requestId` that differs from the send's request id (unknown 2). */
  requestIdMismatch?: boolean;
  /** The redirect to redirect_uri drops its query string and fragment, keeping only `?code=` (unknown 3). */
  stripRedirectQuery?: boolean;
  /**
   * validate-token, secure-info and userInfo refuse (400 7114) the token verify-code returned,
   * while still accepting tokens from `emulator.issueToken()` (unknown 4).
   */
  rejectVerifyTokenOnEnrich?: boolean;
  /**
   * verify-code answers the older shape: `timestamp` (ISO) instead of `completedAt`, identities
   * with `verifiedAt` (ISO) and `name` instead of `verifiedTimestamp`, and the full `network`.
   */
  legacyVerifyShape?: boolean;
  /** Error answers come with HTTP 200 and the error body `{message, errorCode, description}`. */
  errorWith200?: boolean;
  /** 401 answers carry no `errorCode`: `{"message":"Access blocked","description":"..."}`. */
  noErrorCodeOn401?: boolean;
  /** Each channel of a send gets its own request id (instead of one shared by MOBILE and EMAIL). */
  separateRequestIds?: boolean;
  /**
   * Answers that carry `status` give a state other than SUCCESS (`NOT_FOUND`, HTTP 200):
   * validate-token, secure-info, and verify-code's `userDetails` (whose `message` then says
   * so; the code is spent all the same). The spec shows no other state (section 3).
   */
  statusNotSuccess?: boolean;
  /**
   * validate-token's `timestamp` stamps the time of each answer (emulator clock), not the
   * sign-in: it moves between two validations of one token (unknown 6).
   */
  timestampAtAnswer?: boolean;
  /** validate-token's identities carry no `verifiedAt` (the spec shows no requiredness). */
  omitVerifiedAt?: boolean;
  /**
   * validate-token's identities' `verifiedAt` stamps the time of each answer (emulator clock),
   * not the sign-in: it moves between two validations of one token (unknown 8).
   */
  verifiedAtAtAnswer?: boolean;
}

/** What the next login completed by verify-code looks like; see {@link Emulator.nextLogin}. */
export interface NextLoginOptions {
  /** Identity types answered with `verified: false` (and no verification time). */
  unverified?: readonly IdentityType[];
}

/** A link "delivered" by send magic link: one per channel (MOBILE and/or EMAIL). */
export interface OutboxEntry {
  /**
   * Equals `value` of the channel's request entry and `requestId` of the code verification.
   * One send shares it between its MOBILE and EMAIL entries (unless the `separateRequestIds` quirk is on).
   */
  requestId: string;
  type: IdentityType;
  /** How the link was "delivered": WHATSAPP or SMS (the `channel` of the send) for MOBILE, EMAIL for EMAIL. */
  channel: DeliveryMethod;
  /** The mobile number (digits with country code) or the e-mail address (lower case). */
  to: string;
  /** `{authUrl}/__emulator/link/<linkId>`: open it (optionally with `?risk=<scenario>`) to log in. */
  link: string;
  redirectUri: string;
  /** Epoch ms (emulator clock) when the link and its code expire. */
  expiresAt: number;
  /** Accepted by get-session-details once the login is completed (code verified). */
  sessionToken: string;
  /** Epoch ms (emulator clock). */
  createdAt: number;
}

/**
 * A fault for the next `times` calls to `path` (exact path, any host, query ignored).
 * Order: wait `delayMs`; then destroy the socket (`reset`), or answer when `error`, `status`,
 * `body` or `headers` is set; otherwise handle the call normally (a pure delay).
 * The answer: `error` gives the service's status and body for that error (e.g. `'ipRateLimited'`
 * → 429 7023); otherwise status defaults to 500 and body to `{message, errorCode: 'EMU-FAULT', description}`.
 */
export interface FaultSpec {
  /** e.g. `ENDPOINTS.verifyCode.path` or `/auth/userInfo`. */
  path: string;
  /** One of the service's documented errors; `status` and `body` may still override its parts. */
  error?: ServiceFaultError;
  status?: number;
  /** A string is sent raw (text/plain unless `headers` says otherwise; may be '' or huge); an object as JSON. */
  body?: string | object;
  headers?: Record<string, string>;
  delayMs?: number;
  /** How many calls it applies to. Default 1; `Infinity` for every call until clearFaults(). */
  times?: number;
  /** Destroy the socket without answering. */
  reset?: boolean;
  /**
   * The send answers 200 as usual, but its message by this channel never arrives: it is not in
   * the outbox, and the dev inbox shows it as not delivered ("the service answered 200 but
   * nothing came"). Only with `path: '/auth/v1/authorize'` and `times`; a send by another
   * channel leaves the fault armed. E.g. `{ path, notDelivered: 'WHATSAPP', times: Infinity }`.
   */
  notDelivered?: DeliveryMethod;
}

/** What {@link Emulator.issueToken} creates: a completed login as if the frontend SDK ran. */
export interface IssueTokenOptions {
  /** Default `emulator.user@example.com` when neither email nor mobileNumber is given. */
  email?: string;
  /** Digits with country code, no plus. */
  mobileNumber?: string;
  /** Default 'clean'. */
  risk?: RiskScenario;
  /** Client that owns the token. Default: the first configured client. */
  clientId?: string;
  /** Identity types reported with `verified: false`. Default: none. */
  unverified?: readonly IdentityType[];
}

/** A running emulator. */
export interface Emulator {
  /** `http://127.0.0.1:PORT` of the auth host; the dev inbox is at its `/`. */
  readonly authUrl: string;
  /** `http://127.0.0.1:PORT` of the user-auth host. */
  readonly userAuthUrl: string;
  /** The accepted clients. */
  readonly clients: readonly EmulatorClient[];
  /** Links delivered so far, newest last (copies). */
  outbox(): OutboxEntry[];
  /** Injects a fault; see {@link FaultSpec}. Throws TypeError on a bad spec. */
  fault(spec: FaultSpec): void;
  clearFaults(): void;
  /** Moves the emulator's clock forward by `ms`. */
  advanceTime(ms: number): void;
  /** Epoch ms on the emulator's clock. */
  now(): number;
  /** Creates a completed login and returns its token (valid for validate-token, secure-info, userInfo). */
  issueToken(options?: IssueTokenOptions): string;
  /**
   * Shapes the NEXT login that verify-code completes (then forgotten), e.g.
   * `nextLogin({ unverified: ['EMAIL'] })` answers its e-mail identity with `verified: false`.
   * Throws TypeError on bad options.
   */
  nextLogin(options: NextLoginOptions): void;
  /** Replaces the quirks in force (`{}` turns all off). Throws TypeError naming an unknown quirk. */
  setQuirks(quirks: EmulatorQuirks): void;
  /** The quirks in force (a copy). */
  quirks(): EmulatorQuirks;
  /**
   * Forgets all links, logins, outbox entries, faults and a pending `nextLogin`, and restores the
   * quirks given to startEmulator (the clock keeps its offset).
   */
  reset(): void;
  /** Closes both servers and their keep-alive sockets, and clears timers. Idempotent. */
  close(): Promise<void>;
}
