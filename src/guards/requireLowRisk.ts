import { createHash } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import { channels } from '../diagnostics.js';
import type { OtplessClient } from '../client/index.js';
import { assessRisk, compactSignals, RISK_ACTIONS, strictestAction, validateRiskPolicy } from '../risk/index.js';
import { checkRiskPolicy } from '../risk/policy.js';
import { optionError } from '../options.js';
import { isBoolean, isFunction, oneOf } from '../options/checks.js';
import type { OptionTable } from '../options/table.js';
import type { RiskAction, RiskPolicy, RiskReason, RiskVerdict } from '../risk/index.js';
import type { HttpRequest, NextFunction } from '../web/request.js';
import { writeLoginRisk } from '../session/loginRecord.js';
import { rememberAtMost } from '../boundedMemo.js';
import type { LoginRecord, LoginRiskRecord } from '../session/loginRecord.js';
import { checkGuardOptions, createGuard, GUARD_OPTIONS } from './core.js';
import type { GuardMiddleware, GuardOptions } from './core.js';
import { refuse } from './refuse.js';

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
  /**
   * A sign-in with a passkey (the mount's `passkeys`) made no service call, so it carries none of
   * the signals this guard judges. `'refuse'` (the default) fails closed with 403
   * `PASSKEY_NOT_ACCEPTED`; `'accept'` lets it through as `allow`, by name: the app judges a
   * device-bound, user-verified passkey low-risk enough for this route.
   */
  passkeyLogins?: 'refuse' | 'accept';
}

const GUARD = 'requireLowRisk';
const OWNER = `${GUARD}()`;

/**
 * Lets a request through only when the risk signals of its login are judged `allow`.
 *
 * The signals read at login (stored compactly in the session by `MagicLinkStrategy`) are
 * judged again under this guard's `policy`, so one route can be stricter than another
 * without a new login. The verdict is put on `req.risk`.
 *
 * @example
 * app.get('/payments', requireLowRisk(), showPayments);
 * app.post('/transfer', requireLowRisk({ policy: { vpn: 'block' }, maxAgeMs: 120_000 }), transfer);
 */
export function requireLowRisk(options?: RequireLowRiskOptions): GuardMiddleware {
  const opts = checkOptions(options);
  const policy = validateRiskPolicy(opts.policy);
  const staleAction = opts.staleAction ?? 'challenge';
  const backoffMs = opts.refetchBackoffMs ?? DEFAULT_REFETCH_BACKOFF_MS;

  // This guard's name in the verdicts kept with each checked login (see GuardDecision).
  const verdictKey = `${GUARD}#${++guardsBuilt}`;
  /**
   * The verdict on `signals` read at `at`; `remembered`: the verdicts kept with the login the
   * signals come from, when they are its stored ones (`assessRisk` is pure, so the same signals,
   * time and policy always get the same verdict).
   */
  const assess = (signals: unknown, at: number, remembered?: Map<string, RiskVerdict>): RiskVerdict => {
    const known = remembered?.get(verdictKey);
    const verdict = known ?? assessRisk(signals, policy, { now: at });
    if (remembered && !known) rememberAtMost(remembered, verdictKey, verdict, MAX_REMEMBERED_VERDICTS);
    // A copy: the caller's verdict is theirs to change (req.risk, a stale reason pushed).
    const copy: RiskVerdict = { action: verdict.action, reasons: verdict.reasons.map((reason) => ({ ...reason })) };
    if (verdict.score !== undefined) copy.score = verdict.score;
    return copy;
  };

  /** True when the signals are older than `maxAgeMs` (or were never read). */
  const isStale = (record: LoginRecord, now: number): boolean =>
    opts.maxAgeMs !== undefined && (!record.risk || now - record.risk.at > opts.maxAgeMs);

  /** Judges the stored signals; stale ones that were not refreshed also ask for `staleAction`. */
  const judge = (
    record: LoginRecord,
    now: number,
    stale: boolean,
    refreshed: boolean,
    remembered?: Map<string, RiskVerdict>,
  ): GuardVerdict => {
    // No signals were fetched at login: judged as missing (fail closed), like an empty answer.
    // Judged as of when they were read (a factory reset "6 days before" stays 6 days before);
    // how old they may be is maxAgeMs's business.
    const risk = record.risk;
    const verdict = (
      risk ? assess(risk.signals ?? undefined, risk.at, remembered) : assess(undefined, now)
    ) as GuardVerdict;
    verdict.signalsAt = record.risk?.at ?? null;
    verdict.stale = stale;
    verdict.refreshed = refreshed;
    if (stale && staleAction !== 'allow') {
      verdict.reasons.push({ signal: 'missing', action: staleAction, detail: 'stale' });
      verdict.action = strictestAction(verdict.action, staleAction);
    }
    return verdict;
  };

  const respond = (
    req: HttpRequest,
    res: ServerResponse,
    next: NextFunction,
    record: LoginRecord,
    verdict: GuardVerdict,
    now: number,
  ): void => {
    (req as HttpRequest & { risk?: GuardVerdict }).risk = verdict;
    if (opts.audit) {
      opts.audit({
        guard: GUARD,
        userId: record.id,
        route: `${req.method ?? 'GET'} ${routeOf(req)}`,
        action: verdict.action,
        reasons: verdict.reasons,
        stale: verdict.stale,
        refreshed: verdict.refreshed,
        observeOnly: opts.observeOnly === true,
        at: now,
      });
    }
    if (channels.guardVerdict.hasSubscribers) {
      // The audit event without the user: a channel's listeners are the whole process's.
      channels.guardVerdict.publish({
        guard: GUARD,
        route: `${req.method ?? 'GET'} ${routeOf(req)}`,
        action: verdict.action,
        reasons: verdict.reasons.map((r) => r.signal),
        stale: verdict.stale,
        refreshed: verdict.refreshed,
        observeOnly: opts.observeOnly === true,
      });
    }
    if (opts.observeOnly || verdict.action === 'allow') return next();
    if (verdict.action === 'challenge') {
      return opts.onChallenge
        ? opts.onChallenge(req, res, next, verdict)
        : refuse(req, res, 'RISK_CHALLENGE', opts.loginUrl);
    }
    return opts.onBlock ? opts.onBlock(req, res, next, verdict) : refuse(req, res, 'RISK_BLOCKED', opts.loginUrl);
  };

  // A login without signals is refused (fail closed); when that is because the strategy asks for
  // none, the operator hears it once, instead of a bare RISK_BLOCKED for everyone.
  let saidNoSignals = false;
  // Synchronous unless a refetch is due: a guard runs on every request of the route.
  return createGuard(GUARD, opts, (req, res, next, record, verdicts) => {
    const now = Date.now();
    if (record.via === 'passkey') return passkeyLogin(req, res, next, opts);
    if (!record.risk && !saidNoSignals) {
      saidNoSignals = true;
      process.emitWarning(
        `${OWNER} refuses logins without risk signals, and this one has none: the strategy fetched no signals ` +
          "at login. Give MagicLinkStrategy enrich: ['secureInfo'] (or ['validateToken']) so that logins carry " +
          'them; frontend-SDK token logins carry them already.',
        { type: 'PassportOtplessWarning', code: 'OTPLESS_NO_RISK_SIGNALS' },
      );
    }
    const stale = isStale(record, now);
    const fresh =
      stale && record.risk && opts.client && record.token
        ? refetch(opts.client, record.token, now, backoffMs)
        : undefined;
    if (!fresh) return respond(req, res, next, record, judge(record, now, stale, false, verdicts), now);
    return fresh.then((signals) => {
      if (!signals) return respond(req, res, next, record, judge(record, now, true, false, verdicts), now);
      const risk = { ...signals, action: assessRisk(signals.signals, policy, { now: signals.at }).action };
      // A new record, never a change to the one read: with a server-side session that object is
      // the stored one, and only writeLoginRisk() writes the session.
      writeLoginRisk(req, record, risk);
      const refreshed = { ...record, risk };
      respond(req, res, next, refreshed, judge(refreshed, now, false, true), now);
    });
  });
}

/**
 * A passkey sign-in: no signals to judge. Refused (fail closed) unless the route's policy accepts
 * passkey logins by name; either way `req.risk` says why, with the one reason `passkey`.
 */
function passkeyLogin(req: HttpRequest, res: ServerResponse, next: NextFunction, opts: RequireLowRiskOptions): void {
  const accept = opts.passkeyLogins === 'accept';
  const verdict: GuardVerdict = {
    action: accept ? 'allow' : 'block',
    reasons: [{ signal: 'missing', action: accept ? 'allow' : 'block', detail: 'passkey' }],
    signalsAt: null,
    stale: false,
    refreshed: false,
  };
  (req as HttpRequest & { risk?: GuardVerdict }).risk = verdict;
  if (accept || opts.observeOnly) return next();
  refuse(req, res, 'PASSKEY_NOT_ACCEPTED', opts.loginUrl);
}

/** Signals read again through secure-info, or `undefined` when that failed. */
type Refetched = Pick<LoginRiskRecord, 'signals' | 'at'> | undefined;

/** Refetches of one client: in flight and recently failed, by a hash of the session's token. */
interface Refetches {
  inFlight: Map<string, Promise<Refetched>>;
  failedUntil: Map<string, number>;
}

const DEFAULT_REFETCH_BACKOFF_MS = 30_000;
/** Verdicts kept per login and guard: guards are built at startup, so few. */
const MAX_REMEMBERED_VERDICTS = 32;
/** Guards built in this process, so each has a name of its own for the verdicts it keeps. */
let guardsBuilt = 0;
/** Above this many remembered failures, the expired ones are swept on the next failure. */
const SWEEP_AT = 1_000;
const REFETCHES = new WeakMap<OtplessClient, Refetches>();

/**
 * The signals of the session with this token, read again through secure-info; `undefined`
 * without a call while a failure of that session is recent (for the `backoffMs` of the guard
 * whose call failed). Concurrent callers share one call, whatever their guard, so a burst of
 * requests (or an outage) costs one upstream call per session, not one each.
 */
function refetch(client: OtplessClient, token: string, now: number, backoffMs: number): Promise<Refetched> {
  let state = REFETCHES.get(client);
  if (!state) {
    state = { inFlight: new Map(), failedUntil: new Map() };
    REFETCHES.set(client, state);
  }
  const { inFlight, failedUntil } = state;
  // A hash, so the maps that outlive the request never hold a token.
  const key = createHash('sha256').update(token).digest('base64url');
  const pending = inFlight.get(key);
  if (pending) return pending;
  if ((failedUntil.get(key) ?? 0) > now) return Promise.resolve(undefined);

  const call = client.getSecureInfo(token).then(
    (answer): Refetched => {
      failedUntil.delete(key);
      return { signals: compactSignals(answer.secure_info), at: now };
    },
    (): Refetched => {
      // A failed refetch leaves the signals stale: staleAction decides, never "allow" by default.
      if (failedUntil.size >= SWEEP_AT) {
        for (const [k, until] of failedUntil) if (until <= Date.now()) failedUntil.delete(k);
      }
      failedUntil.set(key, Date.now() + backoffMs);
      return undefined;
    },
  );
  inFlight.set(key, call);
  void call.finally(() => inFlight.delete(key));
  return call;
}

const MS = 'a number of milliseconds, 0 or more';

/** Every option of `requireLowRisk()`: its check and one-line doc (defaults are applied where used). */
export const REQUIRE_LOW_RISK_OPTIONS = {
  policy: {
    check: (value, owner, name) => {
      if (value !== undefined) checkRiskPolicy(value as RiskPolicy | null, owner, name);
      return value as RiskPolicy | undefined;
    },
    defaultDoc: '`DEFAULT_RISK_POLICY`',
    doc: 'the policy this route judges by',
  },
  maxAgeMs: { check: millis, defaultDoc: 'none', doc: 'signals older than this are stale' },
  staleAction: {
    check: oneOf(RISK_ACTIONS),
    defaultDoc: "`'challenge'`",
    doc: 'what stale signals ask for when they cannot be refetched',
  },
  client: {
    check: (value, owner, name) => {
      const client = value as OtplessClient | null | undefined;
      if (client !== undefined && (typeof client !== 'object' || typeof client?.getSecureInfo !== 'function')) {
        throw optionError(owner, name, 'an OtplessClient (pass strategy.client)');
      }
      return client;
    },
    defaultDoc: 'none',
    doc: "refetch stale signals through secure-info; only with a server-side session (express-session), which is where the login's token is kept. Concurrent refetches of one session make one call",
  },
  refetchBackoffMs: {
    check: millis,
    defaultDoc: '`30000`',
    doc: 'after a refetch failed, that session makes no new call for this long and gets `staleAction` meanwhile (an outage upstream costs one call per session, not one per request)',
  },
  onChallenge: {
    check: isFunction<RequireLowRiskOptions['onChallenge']>(),
    defaultDoc: '403',
    doc: '`(req, res, next, verdict)`: step up, or your own page',
  },
  onBlock: {
    check: isFunction<RequireLowRiskOptions['onBlock']>(),
    defaultDoc: '403',
    doc: '`(req, res, next, verdict)`: your own page',
  },
  observeOnly: {
    check: isBoolean,
    defaultDoc: '`false`',
    doc: 'let every request through, but still decide, set `req.risk` and call `audit` (to roll a policy out)',
  },
  audit: {
    check: isFunction<RequireLowRiskOptions['audit']>(),
    defaultDoc: 'none',
    doc: '`(event)` for every decision: `userId`, `route`, `action`, `reasons`, `stale`, `refreshed`, `observeOnly`, `at`; never a token. An exception in it is passed to `next`',
  },
  passkeyLogins: {
    check: oneOf(['refuse', 'accept'] as const),
    defaultDoc: "`'refuse'`",
    doc: "a passkey sign-in carries no risk signals: `'refuse'` answers 403 `PASSKEY_NOT_ACCEPTED`, `'accept'` lets it through by name",
  },
  ...GUARD_OPTIONS,
} satisfies OptionTable<RequireLowRiskOptions>;

/** A number of milliseconds, 0 or more. */
function millis(value: unknown, owner: string, name: string): number | undefined {
  if (value !== undefined && (typeof value !== 'number' || !Number.isFinite(value) || value < 0)) {
    throw optionError(owner, name, MS);
  }
  return value;
}

function checkOptions(options: RequireLowRiskOptions | undefined): RequireLowRiskOptions {
  return checkGuardOptions(GUARD, options, REQUIRE_LOW_RISK_OPTIONS);
}

function routeOf(req: HttpRequest): string {
  const url = (req as HttpRequest & { originalUrl?: string }).originalUrl ?? req.url ?? '';
  return url.split('?')[0] ?? '';
}
