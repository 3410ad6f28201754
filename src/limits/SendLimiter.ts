import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
import type { RateLimiterAbstract } from 'rate-limiter-flexible';
import { checkSendLimits } from './options.js';
import type { SendLimit, SendLimitsOptions } from './options.js';
import { destinationIpKey, destinationKey, hashedKey, ipKey } from './keys.js';
import type { RedisCommands } from '../stores/redis.js';

/** The Redis the strategy's `store` option was given: limits count there, under its prefix. */
export interface SharedLimitStore {
  redis: RedisCommands;
  prefix: string;
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

/** A store call that has not answered by then has failed: the send must not hang on it. */
const STORE_DEADLINE_MS = 2_000;

/**
 * Send limits per client IP and per destination, on rate-limiter-flexible: in memory (one
 * process), or in Redis through the app's node-redis client so every instance shares the counts.
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
  private readonly byIp: RateLimiterAbstract | undefined;
  private readonly byDestination: RateLimiterAbstract | undefined;
  private readonly byDestinationAndIp: RateLimiterAbstract | undefined;
  /** How often each destination was reset in the window: part of its pairs' keys, so a reset ends them all. */
  private readonly resets: RateLimiterAbstract | undefined;
  /** Redis: keys hashed, calls bounded in time. Memory: neither is needed (no I/O, nothing shared). */
  private readonly shared: boolean;

  constructor(options: SendLimitsOptions = {}, store?: SharedLimitStore) {
    const resolved = checkSendLimits('SendLimiter', options);
    this.perDestination = resolved.perDestination;
    this.perIp = resolved.perIp;
    // `limits.redis` names a client of its own; otherwise the strategy's `store` is used.
    const client = resolved.redis ?? store?.redis.client;
    const prefix = resolved.redis || options.prefix !== undefined || !store ? resolved.prefix : `${store.prefix}limit:`;
    this.shared = client !== undefined;
    const build = (limit: Readonly<SendLimit> | false, name: string): RateLimiterAbstract | undefined => {
      if (limit === false) return undefined;
      const common = { points: limit.limit, duration: limit.windowSeconds, keyPrefix: `${prefix}${name}` };
      if (!client) return new RateLimiterMemory(common);
      // rejectIfRedisNotReady: while the client is reconnecting, node-redis would queue the
      // command and the send would hang; refusing at once lets the send fail closed quickly.
      return new RateLimiterRedis({
        ...common,
        storeClient: client,
        useRedisPackage: resolved.redis !== undefined || store?.redis.kind === 'node-redis',
        rejectIfRedisNotReady: true,
      });
    };
    this.byIp = build(this.perIp, 'ip');
    const perDestination = this.perDestination;
    this.byDestinationAndIp = build(perDestination, 'dip');
    this.resets = build(
      perDestination && { limit: Number.MAX_SAFE_INTEGER, windowSeconds: perDestination.windowSeconds },
      'rst',
    );
    this.byDestination = build(
      perDestination && { ...perDestination, limit: perDestination.limit * DESTINATION_TOTAL_FACTOR },
      'dst',
    );
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
    const taken: Array<{ limiter: RateLimiterAbstract; key: string }> = [];
    const refund = () => this.refund(taken);
    const steps: Array<{ limiter: RateLimiterAbstract | undefined; key: string; by: SendLimitedBy; pair?: string }> = [
      { limiter: this.byIp, key: this.key(ipKey(ip)), by: 'ip' },
      ...destinations.map((d) => ({
        limiter: this.byDestination,
        key: this.key(destinationKey(d)),
        by: (d.includes('@') ? 'email' : 'mobile') as SendLimitedBy,
        pair: destinationIpKey(d, ip),
      })),
    ];
    for (const { limiter, key, by, pair } of steps) {
      if (!limiter) continue;
      try {
        await this.call(limiter.consume(key, 1));
        taken.push({ limiter, key });
        if (pair !== undefined && this.byDestinationAndIp && this.resets) {
          // A reset of the destination (support, or a login that went through) starts every
          // pair afresh: the pairs' keys carry the count of resets.
          const resets = (await this.call(this.resets.get(key)))?.consumedPoints ?? 0;
          const pairKey = this.key(`${pair}#${resets}`);
          await this.call(this.byDestinationAndIp.consume(pairKey, 1));
          taken.push({ limiter: this.byDestinationAndIp, key: pairKey });
        }
      } catch (err) {
        // Refused budgets and a failed store alike: what was taken for this send goes back.
        await refund();
        if (err instanceof RateLimiterRes) {
          return { allowed: false, by, retryAfterSeconds: Math.max(1, Math.ceil(err.msBeforeNext / 1000)) };
        }
        throw storeError(err);
      }
    }
    return { allowed: true, refund };
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
    if (!this.byDestination || !this.resets || typeof destination !== 'string') return;
    try {
      const key = this.key(destinationKey(destination));
      await this.call(this.resets.consume(key, 1));
      await this.call(this.byDestination.delete(key));
    } catch (err) {
      throw storeError(err);
    }
  }

  /** Best effort: a refund that fails leaves the send counted, which errs on the safe side. */
  private async refund(taken: Array<{ limiter: RateLimiterAbstract; key: string }>): Promise<void> {
    const all = taken.splice(0);
    await Promise.all(all.map(({ limiter, key }) => this.call(limiter.reward(key, 1)).catch(() => undefined)));
  }

  private key(key: string): string {
    return this.shared ? hashedKey(key) : key;
  }

  private call<T>(promise: Promise<T>): Promise<T> {
    return this.shared ? withDeadline(promise) : promise;
  }
}

function withDeadline<T>(promise: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${STORE_DEADLINE_MS} ms`)), STORE_DEADLINE_MS);
  });
  return Promise.race([promise, deadline]).finally(() => clearTimeout(timer));
}

function storeError(err: unknown): Error {
  const why = err instanceof Error ? err.message : String(err);
  return new Error(`send limits: the store failed (${why}); sends are refused until it answers`, {
    cause: err instanceof Error ? err : undefined,
  });
}
