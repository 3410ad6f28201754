import { OtplessRequestError } from '../errors/index.js';
import { en } from '../web/messages/en.js';
import { optionError } from '../options.js';
import { stringWhere } from '../options/checks.js';
import { checkOptionsArgument } from '../options/table.js';
import type { OptionTable } from '../options/table.js';
import type { FlowStore } from './types.js';

/**
 * A Redis client as the app already has it: node-redis v4 to v6 (`createClient()`, or
 * `createCluster()`), or ioredis (`new Redis()`, or `new Redis.Cluster()`). The store only
 * sends commands; connecting, the `'error'` listener and quitting stay the app's.
 */
export type RedisClientLike = object;

/** Options of `RedisFlowStore`. */
export interface RedisFlowStoreOptions {
  /** A connected node-redis or ioredis client (or cluster client) the app owns. */
  client: RedisClientLike;
  /** Prefix of every key. Default `'otpless:'`. */
  prefix?: string;
}

/** The four commands the store sends, whatever the client. */
export interface RedisCommands {
  /** Which client it is: the send limits' scripts are called by each one's own signature. */
  readonly kind: 'node-redis' | 'ioredis';
  readonly client: RedisClientLike;
  setNx(key: string, value: string, ttlMs: number): Promise<unknown>;
  get(key: string): Promise<unknown>;
  getDel(key: string): Promise<unknown>;
  /** A script over the keys it is given (one here, so any cluster slot serves it). */
  eval(script: string, keys: string[], args: string[]): Promise<unknown>;
  /** False while the client is not connected (a command would wait in its offline queue). */
  ready(): boolean;
}

/** A store command that has not answered by then has failed: no request hangs on Redis. */
const STORE_DEADLINE_MS = 2_000;

type Fn = (...args: unknown[]) => Promise<unknown>;

/**
 * The client's kind, as connect-redis tells them apart: node-redis clients (and cluster
 * clients) have `scanIterator` or `masters`; ioredis ones have `getdel` and `status`.
 * `undefined` for anything else.
 */
export function redisCommandsOf(client: unknown): RedisCommands | undefined {
  if (typeof client !== 'object' || client === null) return undefined;
  const c = client as Record<string, unknown>;
  const has = (...names: string[]) => names.every((n) => typeof c[n] === 'function');
  if (('scanIterator' in c || 'masters' in c) && has('set', 'get', 'getDel', 'eval')) {
    const call = (name: string, ...args: unknown[]) => (c[name] as Fn).apply(client, args);
    return {
      kind: 'node-redis',
      client,
      // PX/NX: accepted by node-redis v4 and, still, by v5.
      setNx: (key, value, ttlMs) => call('set', key, value, { PX: ttlMs, NX: true }),
      get: (key) => call('get', key),
      getDel: (key) => call('getDel', key),
      eval: (script, keys, args) => call('eval', script, { keys, arguments: args }),
      // A cluster client has no `isReady`: its node clients queue, and the deadline holds.
      ready: () => c.isReady !== false,
    };
  }
  if ('status' in c && has('set', 'get', 'getdel', 'eval')) {
    const call = (name: string, ...args: unknown[]) => (c[name] as Fn).apply(client, args);
    return {
      kind: 'ioredis',
      client,
      setNx: (key, value, ttlMs) => call('set', key, value, 'PX', ttlMs, 'NX'),
      get: (key) => call('get', key),
      getDel: (key) => call('getdel', key),
      eval: (script, keys, args) => call('eval', script, keys.length, ...keys, ...args),
      ready: () => c.status === 'ready',
    };
  }
  return undefined;
}

/** Why a command was refused before it was sent. */
const NOT_CONNECTED = 'the Redis client is not connected';
/** ioredis's states (single and Cluster) while it makes its first connection. */
const CONNECTING = new Set(['connecting', 'connect']);
/** One 'ready' listener per client, however many commands wait: no listener piles up. */
const pendingReady = new WeakMap<object, Promise<void>>();

interface Emitter {
  once(event: string, listener: () => void): unknown;
  off(event: string, listener: () => void): unknown;
}

/**
 * Resolves once the client can take a command, within `ms`: at once when it is ready; an ioredis
 * client (single or `Redis.Cluster`) still making its first connection is waited for, as its own
 * offline queue would (an app uses it right after `new Redis()`). Rejects at once when it is not
 * connecting (disconnected, ended, `lazyConnect` never connected, node-redis not ready), when it
 * ends, and past `ms`: a command is never left to wait in an offline queue and be sent later.
 */
export async function whenReady(kind: RedisCommands['kind'], client: object, ms: number): Promise<void> {
  const c = client as Record<string, unknown>;
  if (kind === 'node-redis') {
    if (c.isReady === false) throw new Error(NOT_CONNECTED);
    return;
  }
  if (c.status === 'ready') return;
  const emitter = client as Partial<Emitter>;
  if (!CONNECTING.has(String(c.status)) || typeof emitter.once !== 'function' || typeof emitter.off !== 'function') {
    throw new Error(NOT_CONNECTED);
  }
  let ready = pendingReady.get(client);
  if (ready === undefined) {
    ready = new Promise<void>((resolve, reject) => {
      const done = () => {
        emitter.off!('ready', onReady);
        emitter.off!('end', onEnd);
        pendingReady.delete(client);
      };
      const onReady = () => {
        done();
        resolve();
      };
      const onEnd = () => {
        done();
        reject(new Error(NOT_CONNECTED));
      };
      emitter.once!('ready', onReady);
      emitter.once!('end', onEnd);
    });
    // Each caller races it against its own deadline: a rejection nobody awaits is no crash.
    ready.catch(() => undefined);
    pendingReady.set(client, ready);
  }
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`not connected within ${ms} ms`)), ms);
  });
  try {
    await Promise.race([ready, deadline]);
  } finally {
    clearTimeout(timer);
  }
}

/** What option errors say a Redis client is. */
export const REDIS_CLIENT_EXPECTED =
  'a connected Redis client: node-redis createClient()/createCluster() or ioredis new Redis()/new Redis.Cluster()';

// Compare-and-set in one step on the server, keeping the key's expiry (KEEPTTL: Redis 6+).
// It touches only the key it is given, so it runs on a cluster as on one server.
const SWAP = `if redis.call('GET', KEYS[1]) == ARGV[1] then redis.call('SET', KEYS[1], ARGV[2], 'KEEPTTL') return 1 end return 0`;

const OWNER = 'RedisFlowStore';

/** Every option of `RedisFlowStore`: its check, default and one-line doc. */
export const REDIS_FLOW_STORE_OPTIONS = {
  client: {
    check: (value, owner, name) => {
      const redis = redisCommandsOf(value);
      if (!redis) throw optionError(owner, name, REDIS_CLIENT_EXPECTED);
      return redis;
    },
    defaultDoc: 'required',
    doc: 'a connected node-redis or ioredis client (or cluster client) the app owns',
  },
  prefix: {
    check: stringWhere((prefix) => prefix.length <= 100, 'a string of at most 100 characters'),
    default: 'otpless:',
    doc: 'prefix of every key',
  },
} satisfies OptionTable<RedisFlowStoreOptions>;

/**
 * A `FlowStore` on Redis, shared by every instance of the app: what the strategy's `store`
 * option builds from a Redis client. Entries expire by Redis TTL; every command touches one
 * key (cluster-ready); `take` is one GETDEL, so a flow is finished once across all instances.
 *
 * @example
 * const redis = createClient({ url: process.env.REDIS_URL });
 * await redis.connect();
 * new MagicLinkStrategy({ ..., store: redis }, verify);
 */
export class RedisFlowStore implements FlowStore {
  readonly #redis: RedisCommands;
  readonly #prefix: string;

  constructor(options: RedisFlowStoreOptions) {
    const { client: redis, prefix } = checkOptionsArgument(
      REDIS_FLOW_STORE_OPTIONS,
      OWNER,
      options,
      'an object with client',
    );
    this.#redis = redis;
    this.#prefix = prefix;
  }

  /** The client's commands and kind, for the send limits sharing it. */
  get redis(): RedisCommands {
    return this.#redis;
  }

  /** The prefix of every key. */
  get prefix(): string {
    return this.#prefix;
  }

  async create(key: string, value: string, ttlMs: number): Promise<boolean> {
    const ms = Math.max(1, Math.ceil(ttlMs));
    return (await this.#call(() => this.#redis.setNx(this.#prefix + key, value, ms))) === 'OK';
  }

  async get(key: string): Promise<string | undefined> {
    return text(await this.#call(() => this.#redis.get(this.#prefix + key)));
  }

  async swap(key: string, expected: string, next: string): Promise<boolean> {
    return Number(await this.#call(() => this.#redis.eval(SWAP, [this.#prefix + key], [expected, next]))) === 1;
  }

  async take(key: string): Promise<string | undefined> {
    return text(await this.#call(() => this.#redis.getDel(this.#prefix + key)));
  }

  /**
   * One command, refused at once while the client is disconnected and bounded in time
   * otherwise; any failure is a 503 `STORE_UNAVAILABLE`, so the request ends clearly and
   * nothing is written after it.
   */
  async #call<T>(command: () => Promise<T>): Promise<T> {
    let timer: NodeJS.Timeout | undefined;
    try {
      // One deadline for both: waiting for a client still connecting, and the answer.
      const started = performance.now();
      if (!this.#redis.ready()) await whenReady(this.#redis.kind, this.#redis.client, STORE_DEADLINE_MS);
      const left = Math.max(1, STORE_DEADLINE_MS - (performance.now() - started));
      const deadline = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`no answer within ${STORE_DEADLINE_MS} ms`)), left);
      });
      return await Promise.race([command(), deadline]);
    } catch (err) {
      throw storeUnavailable(err);
    } finally {
      clearTimeout(timer);
    }
  }
}

/** The error a failed store command ends the request with; the cause keeps the details. */
export function storeUnavailable(err: unknown): OtplessRequestError {
  const cause = err instanceof Error ? err : new Error(String(err));
  return new OtplessRequestError(503, 'STORE_UNAVAILABLE', en['error.service'], undefined, cause);
}

function text(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if (Buffer.isBuffer(value)) return value.toString('utf8');
  return undefined;
}
