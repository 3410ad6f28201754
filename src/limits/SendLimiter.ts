import { checkSendLimits } from './options.js';
import type { SendLimit, SendLimitsOptions } from './options.js';
import { destinationKey, destinationKeys, ipKey } from './keys.js';
import type { LimitCounts, SendCounts } from './counts.js';
import { MemoryLimitCounts } from './memoryLimits.js';
import { RedisLimitCounts } from './redisLimits.js';
import type { RedisCommands } from '../stores/redis.js';
import { randomBytes } from 'node:crypto';
import { deriveKey } from '../crypto.js';
import { optionError } from '../options.js';

/** The Redis the strategy's `store` option was given: limits count there, under its prefix. */
export interface SharedLimitStore {
  redis: Pick<RedisCommands, 'client' | 'kind'>;
  prefix: string;
  /** The strategy's store secret: the keys' digests are keyed with it, alike on every instance. */
  secret?: string | Buffer;
}

/**
 * What a refused send was counted against.
 *
 * @example
 * if (!decision.allowed && decision.by === 'ip') console.warn('one address asks for many links');
 */
export type SendLimitedBy = 'ip' | 'email' | 'mobile';

/**
 * The answer of `SendLimiter#take`: go ahead (and refund if nothing was sent), or wait.
 *
 * @example
 * const decision = await limiter.take(req.ip, ['ada@example.com']);
 * if (decision.allowed) await sendOrRefund(decision.refund);
 * else res.set('Retry-After', String(decision.retryAfterSeconds)).sendStatus(429);
 */
export type SendDecision =
  { allowed: true; refund(): Promise<void> } | { allowed: false; by: SendLimitedBy; retryAfterSeconds: number };

/**
 * How many times the per-destination budget one destination may get in a window from all
 * clients together. `perDestination` is counted per destination *and client IP* (as
 * rate-limiter-flexible's login example counts per username and IP, and Auth0 blocks a user per
 * IP): a stranger's sends spend their own pair, not the owner's. This cap still bounds a
 * bombed inbox when the sends come from many addresses.
 */
export const DESTINATION_TOTAL_FACTOR = 3;

/**
 * Send limits per client IP and per destination, in fixed windows: in memory (one process, a
 * compact table swept as it goes), or in Redis through the app's client so every instance
 * shares the counts (one script call per send).
 * `MagicLinkStrategy` builds one from its `limits` option; build one yourself to share it
 * between strategies or to reset a destination from your own code.
 *
 * @example
 * const limiter = new SendLimiter({ perDestination: { limit: 5, windowSeconds: 900 }, redis: redisClient });
 * const strategy = new MagicLinkStrategy({ ...credentials, callbackUrl, limits: limiter }, verify);
 * await limiter.resetDestination('+14155550123'); // support reset a locked-out number
 */
export class SendLimiter {
  /** The budget per destination, or `false` when not limited. */
  readonly perDestination: Readonly<SendLimit> | false;
  /** The budget per client IP, or `false` when not limited. */
  readonly perIp: Readonly<SendLimit> | false;
  readonly #counts: LimitCounts;

  /**
   * @param store the strategy's `store` Redis (internal: `MagicLinkStrategy` passes it)
   * @param clock the time in ms for the memory store (internal: tests move it)
   */
  constructor(options: SendLimitsOptions = {}, store?: SharedLimitStore, clock: () => number = Date.now) {
    const resolved = checkSendLimits('SendLimiter', options);
    this.perDestination = resolved.perDestination;
    this.perIp = resolved.perIp;
    // Keys are keyed digests: under the secret given (the same on every instance sharing a
    // Redis); in memory without one, under a random key of this limiter.
    const secret = resolved.secret ?? store?.secret;
    const shared = resolved.redis !== undefined || store !== undefined;
    if (shared && secret === undefined) {
      throw optionError(
        'SendLimiter',
        'secret',
        'a secret of at least 32 characters, the same on every instance, when the counts live in Redis',
      );
    }
    const digestKey = deriveKey(secret ?? randomBytes(32), 'send limit keys v1');
    // `limits.redis` names a client of its own (node-redis); otherwise the strategy's `store` is used.
    if (resolved.redis) {
      this.#counts = new RedisLimitCounts({ client: resolved.redis, kind: 'node-redis' }, resolved.prefix, digestKey);
    } else if (store) {
      const prefix = Object.hasOwn(options, 'prefix') ? resolved.prefix : `${store.prefix}limit:`;
      this.#counts = new RedisLimitCounts(store.redis, prefix, digestKey);
    } else {
      this.#counts = new MemoryLimitCounts(clock, digestKey, resolved.maxCounts);
    }
  }

  /**
   * Takes one send from the budget of `ip` and of each destination (E.164 numbers, e-mail
   * addresses), all or nothing. Call it after the input is checked, so invalid input costs
   * nothing, and `refund()` when the service refused the send.
   *
   * @throws Error when the store fails (the caller fails closed)
   * @example
   * const decision = await limiter.take(req.ip, ['+14155550123']);
   * if (!decision.allowed) res.set('Retry-After', String(decision.retryAfterSeconds)).status(429).end();
   */
  async take(ip: string | undefined, destinations: readonly string[]): Promise<SendDecision> {
    const send: SendCounts = { destinations: [] };
    const { perIp, perDestination } = this;
    if (perIp) send.ip = { key: ipKey(ip), limit: perIp.limit, windowMs: perIp.windowSeconds * 1000 };
    const kinds: SendLimitedBy[] = [];
    if (perDestination) {
      for (const d of destinations) {
        const { key, pair } = destinationKeys(d, ip);
        // Two ways of writing one destination in one send are one send to it.
        if (send.destinations.some((s) => s.key === key)) continue;
        send.destinations.push({
          key,
          pair,
          total: perDestination.limit * DESTINATION_TOTAL_FACTOR,
          limit: perDestination.limit,
          windowMs: perDestination.windowSeconds * 1000,
        });
        kinds.push(d.includes('@') ? 'email' : 'mobile');
      }
    }
    if (!send.ip && send.destinations.length === 0) return { allowed: true, refund: () => Promise.resolve() };
    let taken;
    try {
      taken = await this.#counts.take(send);
    } catch (err) {
      throw storeError(err);
    }
    if (taken.allowed) return taken;
    const by = taken.at === 'ip' ? 'ip' : (kinds[taken.at] ?? 'email');
    return { allowed: false, by, retryAfterSeconds: Math.max(1, Math.ceil(taken.retryAfterMs / 1000)) };
  }

  /**
   * Forgets the sends counted for a destination, from every client together and from each one:
   * the strategy calls it when a login through it
   * succeeds, so a person who got in is not held back by their earlier tries.
   *
   * @throws Error when the store fails
   * @example
   * await limiter.resetDestination('Ada@Example.com'); // also clears 'ada+news@example.com'
   */
  async resetDestination(destination: string): Promise<void> {
    if (!this.perDestination || typeof destination !== 'string') return;
    try {
      await this.#counts.reset(destinationKey(destination), this.perDestination.windowSeconds * 1000);
    } catch (err) {
      throw storeError(err);
    }
  }
}

function storeError(err: unknown): Error {
  const why = err instanceof Error ? err.message : String(err);
  return new Error(`send limits: the store failed (${why}); sends are refused until it answers`, {
    cause: err instanceof Error ? err : undefined,
  });
}
