import { createHash } from 'node:crypto';
import type { OtplessClient } from '../client/index.js';
import { compactSignals } from '../risk/index.js';
import type { LoginRiskRecord } from '../session/loginRecord.js';

/** Signals read again through secure-info, or `undefined` when that failed. */
export type Refetched = Pick<LoginRiskRecord, 'signals' | 'at'> | undefined;

/** Refetches of one client: in flight and recently failed, by a hash of the session's token. */
interface Refetches {
  inFlight: Map<string, Promise<Refetched>>;
  failedUntil: Map<string, number>;
}

export const DEFAULT_REFETCH_BACKOFF_MS = 30_000;
/** Above this many remembered failures, the expired ones are swept on the next failure. */
const SWEEP_AT = 1_000;
const REFETCHES = new WeakMap<OtplessClient, Refetches>();

/**
 * The signals of the session with this token, read again through secure-info; `undefined`
 * without a call while a failure of that session is recent (for the `backoffMs` of the guard
 * whose call failed). Concurrent callers share one call, whatever their guard, so a burst of
 * requests (or an outage) costs one upstream call per session, not one each.
 */
export function refetch(client: OtplessClient, token: string, now: number, backoffMs: number): Promise<Refetched> {
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
