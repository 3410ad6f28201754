import type { IdentityType } from '../wire/types.js';
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
  /** When false (the default), each sent link is logged through `log`. */
  quiet?: boolean;
  /** Where link lines go. Default `console.log`. Never receives a code, token or secret. */
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
}

/** A link "delivered" by send magic link: one per channel (MOBILE and/or EMAIL). */
export interface OutboxEntry {
  /** Equals `value` of the channel's request entry and `requestId` of the code verification. */
  requestId: string;
  type: IdentityType;
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
 * Order: wait `delayMs`; then destroy the socket (`reset`), or answer `status`/`body`/`headers`
 * when any of them is set (status defaults to 500, body to an error body with errorCode 7999);
 * otherwise handle the call normally (a pure delay).
 */
export interface FaultSpec {
  /** e.g. `ENDPOINTS.verifyCode.path` or `/auth/userInfo`. */
  path: string;
  status?: number;
  /** A string is sent raw (text/plain unless `headers` says otherwise; may be '' or huge); an object as JSON. */
  body?: string | object;
  headers?: Record<string, string>;
  delayMs?: number;
  /** How many calls it applies to. Default 1; `Infinity` for every call until clearFaults(). */
  times?: number;
  /** Destroy the socket without answering. */
  reset?: boolean;
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
  /** Forgets all links, logins, outbox entries and faults (the clock keeps its offset). */
  reset(): void;
  /** Closes both servers and their keep-alive sockets, and clears timers. Idempotent. */
  close(): Promise<void>;
}
