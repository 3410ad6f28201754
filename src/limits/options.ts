import { intOption, optionError, ownOptions, unknownOptionError } from '../options.js';

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
   * The most counts the memory store holds at once, 1,000 to 10,000,000 (at most 48 bytes
   * each). Default 250,000 (12 MiB). At the bound a send that needs a new count is refused (429
   * `RATE_LIMITED`) until the earliest count ends. Not used with Redis.
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
const KNOWN = ['perDestination', 'perIp', 'redis', 'prefix', 'secret', 'maxCounts'] as const;
const LIMIT_KEYS = ['limit', 'windowSeconds'];

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
  const options = ownOptions((value ?? {}) as SendLimitsOptions);
  for (const key of Object.keys(options)) {
    if (!(KNOWN as readonly string[]).includes(key)) throw unknownOptionError(owner, `${path}${key}`, KNOWN);
  }
  const prefix = options.prefix ?? 'otpless:limit:';
  if (typeof prefix !== 'string' || prefix.length > 100) {
    throw optionError(owner, `${path}prefix`, 'a string of at most 100 characters');
  }
  const redis = options.redis;
  if (
    redis !== undefined &&
    (typeof redis !== 'object' || redis === null || typeof redis.eval !== 'function' || !('isReady' in redis))
  ) {
    throw optionError(owner, `${path}redis`, 'a node-redis client (createClient() of the redis package)');
  }
  const secret = options.secret;
  if (secret !== undefined && (typeof secret !== 'string' || secret.length < 32)) {
    throw optionError(owner, `${path}secret`, 'a string of at least 32 characters (a random secret of the app)');
  }
  const maxCounts = intOption(owner, prefixed(options, path), `${path}maxCounts`, 1_000, 10_000_000);
  return {
    perDestination: checkLimit(owner, options, 'perDestination', path, DEFAULT_SEND_LIMITS.perDestination),
    perIp: checkLimit(owner, options, 'perIp', path, DEFAULT_SEND_LIMITS.perIp),
    redis,
    prefix,
    secret,
    maxCounts,
  };
}

function checkLimit(
  owner: string,
  options: SendLimitsOptions,
  name: 'perDestination' | 'perIp',
  path: string,
  fallback: Readonly<SendLimit>,
): Readonly<SendLimit> | false {
  const value: unknown = options[name];
  if (value === undefined) return fallback;
  if (value === false) return false;
  const expected = 'false or { limit, windowSeconds }';
  if (typeof value !== 'object' || value === null || Object.keys(value).some((k) => !LIMIT_KEYS.includes(k))) {
    throw optionError(owner, `${path}${name}`, expected);
  }
  const limit = ownOptions(value as SendLimit);
  const at = `${path}${name}.`;
  const count = intOption(owner, prefixed(limit, at), `${at}limit`, 1, 1_000_000);
  const windowSeconds = intOption(owner, prefixed(limit, at), `${at}windowSeconds`, 1, 604_800);
  if (count === undefined || windowSeconds === undefined) throw optionError(owner, `${path}${name}`, expected);
  return Object.freeze({ limit: count, windowSeconds });
}

/** The fields of `object` under their full option names, so errors name `limits.perIp.limit`. */
function prefixed(object: object, prefix: string): Record<string, unknown> {
  return Object.fromEntries(Object.entries(object).map(([k, v]) => [`${prefix}${k}`, v]));
}
