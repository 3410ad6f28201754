import { optionError, optionsObject, refuseUnknownOptions } from '../options.js';
import type { FlowStore } from './types.js';

/**
 * The Redis commands the store sends, as node-redis v4/v5 declares them: a node-redis client
 * fits as it is (the one connect-redis already uses). For ioredis, see the README's adapter.
 */
export interface RedisLike {
  set(
    key: string,
    value: string,
    options: { expiration: { type: 'PX'; value: number }; condition: 'NX' },
  ): Promise<string | null | unknown>;
  get(key: string): Promise<string | null | unknown>;
  getDel(key: string): Promise<string | null | unknown>;
  eval(script: string, options: { keys: string[]; arguments: string[] }): Promise<unknown>;
}

/** Options of `RedisFlowStore`. */
export interface RedisFlowStoreOptions {
  /** A connected client the app owns (connect, `'error'` listener, quit): the store only sends commands. */
  client: RedisLike;
  /** Prefix of every key. Default `'otpless:'`. */
  prefix?: string;
}

// Compare-and-set in one step on the server, keeping the key's expiry (KEEPTTL: Redis 6+).
const SWAP = `if redis.call('GET', KEYS[1]) == ARGV[1] then redis.call('SET', KEYS[1], ARGV[2], 'KEEPTTL') return 1 end return 0`;

const OWNER = 'RedisFlowStore';

/**
 * A `FlowStore` on Redis, shared by every instance of the app. Entries expire by Redis TTL;
 * `take` is one GETDEL, so a flow is finished once across all instances.
 *
 * @example
 * const redis = createClient({ url: process.env.REDIS_URL });
 * await redis.connect();
 * new MagicLinkStrategy({ ..., flowStore: new RedisFlowStore({ client: redis, prefix: 'myapp:otpless:' }) }, verify);
 */
export class RedisFlowStore implements FlowStore {
  readonly #client: RedisLike;
  readonly #prefix: string;

  constructor(options: RedisFlowStoreOptions) {
    const { client, prefix = 'otpless:' } = optionsObject<RedisFlowStoreOptions>(
      OWNER,
      options,
      'an object with client',
    );
    refuseUnknownOptions(OWNER, options, ['client', 'prefix']);
    for (const command of ['set', 'get', 'getDel', 'eval'] as const) {
      if (typeof client?.[command] !== 'function') {
        throw optionError(OWNER, 'client', 'a node-redis client (or one with set, get, getDel and eval)');
      }
    }
    if (typeof prefix !== 'string') throw optionError(OWNER, 'prefix', 'a string');
    this.#client = client;
    this.#prefix = prefix;
  }

  async create(key: string, value: string, ttlMs: number): Promise<boolean> {
    const px = { expiration: { type: 'PX', value: Math.max(1, Math.ceil(ttlMs)) }, condition: 'NX' } as const;
    return (await this.#client.set(this.#prefix + key, value, px)) === 'OK';
  }

  async get(key: string): Promise<string | undefined> {
    return text(await this.#client.get(this.#prefix + key));
  }

  async swap(key: string, expected: string, next: string): Promise<boolean> {
    const done = await this.#client.eval(SWAP, { keys: [this.#prefix + key], arguments: [expected, next] });
    return Number(done) === 1;
  }

  async take(key: string): Promise<string | undefined> {
    return text(await this.#client.getDel(this.#prefix + key));
  }
}

function text(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if (Buffer.isBuffer(value)) return value.toString('utf8');
  return undefined;
}
