import { optionError, ownOptions } from '../options.js';
import { intFrom, stringWhere } from '../options/checks.js';
import { checkWithTable } from '../options/table.js';
import type { OptionCheck, OptionTable } from '../options/table.js';

/**
 * A budget: at most `limit` sends in a fixed window of `windowSeconds`.
 *
 * @example
 * const threeIn10Minutes: SendLimit = { limit: 3, windowSeconds: 600 };
 */
export interface SendLimit {
  /** Sends allowed in one window, 1 to 1,000,000. */
  limit: number;
  /** Length of the window in seconds, 1 to 604,800 (a week). */
  windowSeconds: number;
}

/**
 * The commands the Redis store sends, as node-redis v4 to v6 clients (`createClient()` of the
 * `redis` package) have them. The app owns the client: it connects it, listens for 'error'
 * and quits it; the limiter only sends commands.
 *
 * @example
 * const redis = createClient({ url: process.env.REDIS_URL });
 * redis.on('error', (err) => log.warn(err.message));
 * await redis.connect();
 * new SendLimiter({ redis }); // redis fits SendLimitsRedisClient as it is
 */
export interface SendLimitsRedisClient {
  /** node-redis sets this while connected; commands are not sent (the send fails closed) otherwise. */
  readonly isReady: boolean;
  eval: (...args: never[]) => unknown;
  /** Used when there: a send's script goes by its SHA-1, its source only when the server lacks it. */
  evalSha?: (...args: never[]) => unknown;
}

/**
 * Options of `SendLimiter` (and of the strategy's `limits`). Every field is optional.
 *
 * @example
 * new MagicLinkStrategy({ ...credentials, callbackUrl, limits: { perIp: { limit: 50, windowSeconds: 900 }, redis } }, verify);
 */
export interface SendLimitsOptions {
  /** Sends per destination (an E.164 number, or an e-mail address folded), or `false`. Default 5 per 15 minutes. */
  perDestination?: SendLimit | false;
  /** Sends per client IP (an IPv6 address by its /64), or `false`. Default 20 per 15 minutes. */
  perIp?: SendLimit | false;
  /** Count in Redis through this connected node-redis client, so every instance shares the counts. Default: memory (one process). */
  redis?: SendLimitsRedisClient;
  /** Prefix of the Redis keys. Default 'otpless:limit:'. */
  prefix?: string;
  /**
   * The secret the keys' digests (HMAC-SHA256) are keyed with, at least 32 characters, the same
   * on every instance: required with `redis`; the strategy passes its store secret for `store`.
   * In memory, a random key of the limiter by default.
   */
  secret?: string;
  /**
   * The most counts the memory store holds at once, 1,000 to 10,000,000 (at most 56 bytes
   * each). Default 250,000 (14 MiB). At the bound a new count takes the place of the least
   * telling one (expired, else the lowest count not spent of a sample), so a flood never locks
   * new visitors out. Not used with Redis.
   */
  maxCounts?: number;
}

/**
 * The defaults of `SendLimiter` and the strategy's `limits`, chosen for a real app: a person who mistypes or does not get the message asks
 * again two or three times, so 5 per destination per 15 minutes never stops them, while it caps
 * a bombed inbox or phone at 20 messages an hour. 20 per IP per 15 minutes leaves room for a
 * household or an office behind one address; raise it for many users behind one carrier NAT.
 *
 * @example
 * DEFAULT_SEND_LIMITS.perDestination // { limit: 5, windowSeconds: 900 }
 */
export const DEFAULT_SEND_LIMITS: Readonly<{ perDestination: Readonly<SendLimit>; perIp: Readonly<SendLimit> }> =
  Object.freeze({
    perDestination: Object.freeze({ limit: 5, windowSeconds: 15 * 60 }),
    perIp: Object.freeze({ limit: 20, windowSeconds: 15 * 60 }),
  });

/** Options after checking, with defaults applied. */
export interface ResolvedSendLimits {
  perDestination: Readonly<SendLimit> | false;
  perIp: Readonly<SendLimit> | false;
  redis: SendLimitsRedisClient | undefined;
  prefix: string;
  secret: string | undefined;
  maxCounts: number | undefined;
}

const LIMITS_EXPECTED = 'an object with perDestination, perIp, redis, prefix, secret or maxCounts (or false)';
const LIMIT_KEYS = ['limit', 'windowSeconds'];
const DEFAULT_PREFIX = 'otpless:limit:';

/** Every option of `SendLimiter` (the strategy's `limits`): its check, default and line in docs/send-limits.md. */
export const SEND_LIMITS_OPTIONS = {
  perDestination: {
    check: limitCheck(DEFAULT_SEND_LIMITS.perDestination),
    defaultDoc: '`{ limit: 5, windowSeconds: 900 }`',
    doc: "sends per number (E.164) or address (case folded, `+tag` dropped: `Ada+x@Example.com` is `ada@example.com`; Gmail's dots and `googlemail.com` folded) **and client IP**, with 3 × `limit` per destination from all IPs together; or `false`",
  },
  perIp: {
    check: limitCheck(DEFAULT_SEND_LIMITS.perIp),
    defaultDoc: '`{ limit: 20, windowSeconds: 900 }`',
    doc: 'sends per client IP (IPv6 by its /64), or `false`',
  },
  redis: {
    check: (value, owner, name) => {
      const redis = value as SendLimitsRedisClient | null | undefined;
      if (
        redis !== undefined &&
        (typeof redis !== 'object' || redis === null || typeof redis.eval !== 'function' || !('isReady' in redis))
      ) {
        throw optionError(owner, name, 'a node-redis client (createClient() of the redis package)');
      }
      return redis;
    },
    defaultDoc: "the strategy's `store` Redis, else memory",
    doc: 'a connected node-redis client for the limits alone: counts live in Redis, so every instance shares them (one Lua script call per send, all of its counts at once; Redis 6 or later); needs `secret`',
  },
  prefix: {
    // `null` is the default too, as it has always been.
    check: (value, owner, name) => {
      const prefix = value ?? DEFAULT_PREFIX;
      if (typeof prefix !== 'string' || prefix.length > 100) {
        throw optionError(owner, name, 'a string of at most 100 characters');
      }
      return prefix;
    },
    default: DEFAULT_PREFIX,
    defaultDoc: "`'otpless:limit:'` (with `store`: `storePrefix` + `'limit:'`)",
    doc: 'prefix of the Redis keys; the rest of a key is a keyed digest (HMAC-SHA256 under `secret`) of the destination or IP, never the address itself',
  },
  secret: {
    check: stringWhere(
      (secret) => secret.length >= 32,
      'a string of at least 32 characters (a random secret of the app)',
    ),
    defaultDoc: "with `store`: the strategy's store secret; in memory: a random key of the limiter",
    doc: "at least 32 characters, the same on every instance: the keys' digests are keyed with it, so a reader of Redis cannot test a guessed number, address or IP against them (an unkeyed SHA-256 of a 10^6-number phone range is recovered in seconds). Required with `redis` (a `TypeError` at start-up otherwise)",
  },
  maxCounts: {
    check: intFrom(1_000, 10_000_000),
    defaultDoc: '`250000`',
    doc: 'the most counts the memory store holds at once, 1,000 to 10,000,000 (not used with Redis); see below',
  },
} satisfies OptionTable<SendLimitsOptions>;

/**
 * Checks send-limit options; each bad one throws a `TypeError` naming it under `path`
 * (`'limits.'` when they are the strategy's `limits` option).
 */
export function checkSendLimits(owner: string, value: unknown, path = ''): ResolvedSendLimits {
  if (value !== undefined && (typeof value !== 'object' || value === null || Array.isArray(value))) {
    if (path === '') throw new TypeError(`${owner}: options must be ${LIMITS_EXPECTED}`);
    throw optionError(owner, path.slice(0, -1), LIMITS_EXPECTED);
  }
  // Own keys only (no prototype): a polluted Object.prototype.perIp is no option.
  return checkWithTable(SEND_LIMITS_OPTIONS, owner, value ?? {}, path);
}

/** A `{ limit, windowSeconds }` budget, `false`, or (not given) `fallback`. */
function limitCheck(fallback: Readonly<SendLimit>): OptionCheck<Readonly<SendLimit> | false> {
  return (value, owner, name) => {
    if (value === undefined) return fallback;
    if (value === false) return false;
    const expected = 'false or { limit, windowSeconds }';
    if (typeof value !== 'object' || value === null || Object.keys(value).some((k) => !LIMIT_KEYS.includes(k))) {
      throw optionError(owner, name, expected);
    }
    const limit = ownOptions(value as SendLimit);
    const count = intFrom(1, 1_000_000)(limit.limit, owner, `${name}.limit`);
    const windowSeconds = intFrom(1, 604_800)(limit.windowSeconds, owner, `${name}.windowSeconds`);
    if (count === undefined || windowSeconds === undefined) throw optionError(owner, name, expected);
    return Object.freeze({ limit: count, windowSeconds });
  };
}
