import type { ServerResponse } from 'node:http';
import type { OtplessClient } from '../client/index.js';
import type { RiskAction, RiskPolicy, RiskReason, RiskVerdict } from '../risk/index.js';
import type { HttpRequest, NextFunction } from '../web/request.js';
import type { GuardOptions } from './core.js';

/** The verdict a guard reached, as `req.risk` and the audit hook see it. */
export interface GuardVerdict extends RiskVerdict {
  /** Epoch ms when the signals judged were read from the service. */
  signalsAt: number | null;
  /** True when the signals were older than `maxAgeMs` and could not be refetched. */
  stale: boolean;
  /** True when the signals were refetched through secure-info for this request. */
  refreshed: boolean;
}

// `req.risk` for Express apps, as passport's own types add `req.user`. Without Express's types
// installed this declares an unused namespace, which is harmless.
declare global {
  // eslint-disable-next-line @typescript-eslint/no-namespace
  namespace Express {
    interface Request {
      /** The verdict of the last `requireLowRisk()` on this request. */
      risk?: GuardVerdict;
    }
  }
}

/** One decision, for the audit hook: never a token or secret. */
export interface RiskAuditEvent {
  guard: 'requireLowRisk';
  /** The profile id of the logged-in user. */
  userId: string;
  /** Method and path of the request (no query string). */
  route: string;
  action: RiskAction;
  reasons: RiskReason[];
  stale: boolean;
  refreshed: boolean;
  /** True when `observeOnly` let the request through whatever the action. */
  observeOnly: boolean;
  at: number;
}

/**
 * Called with a refused request instead of the default 403. Declared with method syntax in
 * the options so a handler typed with Express's `Request`/`Response` fits.
 */
export type RiskHandler = (req: HttpRequest, res: ServerResponse, next: NextFunction, verdict: GuardVerdict) => void;

/** Options of `requireLowRisk()`. */
export interface RequireLowRiskOptions extends GuardOptions {
  /** Judge the stored signals under this policy (merged over `DEFAULT_RISK_POLICY`). */
  policy?: RiskPolicy;
  /** Signals older than this are stale: refetched when possible, else `staleAction` applies. */
  maxAgeMs?: number;
  /** What stale signals that cannot be refetched ask for. Default 'challenge'. */
  staleAction?: RiskAction;
  /**
   * Client used to refetch stale signals through secure-info (pass `strategy.client`). Works
   * only with a server-side session (express-session), where the login's token is kept.
   * Concurrent refetches of one session make one call, shared by every guard of this client.
   */
  client?: OtplessClient;
  /**
   * After a refetch failed, no new one is tried for that session for this long: its requests
   * get `staleAction` meanwhile, so an outage upstream does not turn every request into a call.
   * Default 30 000.
   */
  refetchBackoffMs?: number;
  /** Handle a `challenge` (step-up, say). Default: 403. */
  onChallenge?(req: HttpRequest, res: ServerResponse, next: NextFunction, verdict: GuardVerdict): void;
  /** Handle a `block`. Default: 403. */
  onBlock?(req: HttpRequest, res: ServerResponse, next: NextFunction, verdict: GuardVerdict): void;
  /** Let every request through, but still decide, set `req.risk` and call `audit`. */
  observeOnly?: boolean;
  /** Receives every decision with its reasons (never a token). An exception here is passed to `next`. */
  audit?(event: RiskAuditEvent): void;
}
