import type { ServerResponse } from 'node:http';
import { channels } from '../diagnostics.js';
import { warnOnce } from '../errors/warnings.js';
import type { OtplessClient } from '../client/index.js';
import { assessRisk, RISK_ACTIONS, strictestAction, validateRiskPolicy } from '../risk/index.js';
import { checkRiskPolicy } from '../risk/policy.js';
import { optionError } from '../options.js';
import { isBoolean, isFunction, oneOf } from '../options/checks.js';
import type { OptionTable } from '../options/table.js';
import type { RiskPolicy, RiskVerdict } from '../risk/index.js';
import type { HttpRequest, NextFunction } from '../web/request.js';
import { writeLoginRisk } from '../session/loginRecord.js';
import { rememberAtMost } from '../boundedMemo.js';
import type { LoginRecord } from '../session/loginRecord.js';
import { checkGuardOptions, createGuard, GUARD_OPTIONS } from './core.js';
import type { GuardMiddleware } from './core.js';
import type { GuardVerdict, RequireLowRiskOptions } from './lowRiskTypes.js';
import { judgePasskeyLogin } from './passkeyLogins.js';
import { refuse } from './refuse.js';
import { DEFAULT_REFETCH_BACKOFF_MS, refetch } from './riskRefetch.js';

export type { GuardVerdict, RequireLowRiskOptions, RiskAuditEvent, RiskHandler } from './lowRiskTypes.js';

const GUARD = 'requireLowRisk';
/** Verdicts kept per login and guard: guards are built at startup, so few. */
const MAX_REMEMBERED_VERDICTS = 32;
/** Guards built in this process, so each has a name of its own for the verdicts it keeps. */
let guardsBuilt = 0;

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

  // Synchronous unless a refetch is due: a guard runs on every request of the route.
  return createGuard(GUARD, opts, (req, res, next, record, verdicts) => {
    const now = Date.now();
    if (record.via === 'passkey') return judgePasskeyLogin(req, res, next, opts);
    // A login without signals is refused (fail closed); when that is because the strategy asks for
    // none, the operator hears it once, instead of a bare RISK_BLOCKED for everyone.
    if (!record.risk) warnOnce('OTPLESS_NO_RISK_SIGNALS');
    const stale = isStale(record, now);
    const fresh =
      stale && record.risk && opts.client && record.token
        ? refetch(opts.client, record.token, now, backoffMs)
        : undefined;
    if (!fresh) return respond(req, res, next, record, judge(record, now, stale, false, verdicts), now);
    return fresh.then((signals) => {
      if (!signals) return respond(req, res, next, record, judge(record, now, true, false, verdicts), now);
      // Object.assign: a spread followed by a member makes a new hidden class per call on Node 20.
      const risk = Object.assign({}, signals, {
        action: assessRisk(signals.signals, policy, { now: signals.at }).action,
      });
      // A new record, never a change to the one read: with a server-side session that object is
      // the stored one, and only writeLoginRisk() writes the session.
      writeLoginRisk(req, record, risk);
      const refreshed = Object.assign({}, record, { risk });
      respond(req, res, next, refreshed, judge(refreshed, now, false, true), now);
    });
  });
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
  ...GUARD_OPTIONS,
  passkeyLogins: {
    check: oneOf(['refuse', 'accept'] as const),
    defaultDoc: "`'refuse'`",
    doc: "a passkey sign-in carries no risk signals: `'refuse'` answers 403 `PASSKEY_NOT_ACCEPTED`, `'accept'` lets it through by name",
  },
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
