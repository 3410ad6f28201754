import { createHash, randomBytes } from 'node:crypto';
import { labelledDigest } from '../crypto.js';
import { whenReady } from '../stores/redis.js';
import type { CountsTaken, LimitCounts, SendCounts } from './counts.js';

/** The Redis client the limits count in, and which kind it is. */
export interface LimitRedis {
  client: object;
  kind: 'node-redis' | 'ioredis';
}

/** A store call that has not answered by then has failed: the send must not hang on it. */
const STORE_DEADLINE_MS = 2_000;

// Counts are strings: the client's an integer (INCR); a destination's and a pair's
// "<count>:<epoch>". Windows are the keys' TTLs, set when a window starts (KEEPTTL: Redis 6+).
// All of a send's counts are read first and written only when none is spent: all or nothing,
// but for the client's count: a send refused at a destination was an attempt, and counts there.
const TAKE = `
local first = 1
if ARGV[1] == '1' then
  if tonumber(redis.call('GET', KEYS[1]) or '0') >= tonumber(ARGV[2]) then
    return {1, redis.call('PTTL', KEYS[1])}
  end
  first = 2
end
-- A count given back to zero keeps its window: only a new key starts one.
local function countClient()
  if first == 2 and redis.call('INCR', KEYS[1]) == 1 and redis.call('PTTL', KEYS[1]) < 0 then
    redis.call('PEXPIRE', KEYS[1], ARGV[3])
  end
end
local total, limit = tonumber(ARGV[4]), tonumber(ARGV[5])
local seen = {}
for i = first, #KEYS, 2 do
  local d = redis.call('GET', KEYS[i])
  local dn, de = 0, '0'
  if d then
    local n, e = string.match(d, '^(%d+):(.*)$')
    dn, de = tonumber(n) or 0, e or '0'
  end
  if dn >= total then
    countClient()
    return {i, redis.call('PTTL', KEYS[i])}
  end
  local pn = -1
  local p = redis.call('GET', KEYS[i + 1])
  if p then
    local n, e = string.match(p, '^(%d+):(.*)$')
    if e == de then pn = tonumber(n) or 0 end
  end
  if pn >= limit then
    countClient()
    return {i + 1, redis.call('PTTL', KEYS[i + 1])}
  end
  seen[i] = {d ~= false, dn, de, pn}
end
countClient()
for i = first, #KEYS, 2 do
  local s = seen[i]
  if s[1] then
    redis.call('SET', KEYS[i], (s[2] + 1) .. ':' .. s[3], 'KEEPTTL')
  else
    redis.call('SET', KEYS[i], '1:0', 'PX', ARGV[6])
  end
  if s[4] >= 0 then
    redis.call('SET', KEYS[i + 1], (s[4] + 1) .. ':' .. s[3], 'KEEPTTL')
  else
    redis.call('SET', KEYS[i + 1], '1:' .. s[3], 'PX', ARGV[6])
  end
end
return {0, 0}`;

const REFUND = `
local first = 1
if ARGV[1] == '1' then
  if tonumber(redis.call('GET', KEYS[1]) or '0') > 0 then redis.call('DECR', KEYS[1]) end
  first = 2
end
for i = first, #KEYS do
  local v = redis.call('GET', KEYS[i])
  if v then
    local n, e = string.match(v, '^(%d+):(.*)$')
    if n and tonumber(n) > 0 then redis.call('SET', KEYS[i], (tonumber(n) - 1) .. ':' .. e, 'KEEPTTL') end
  end
end
return 0`;

const RESET = `redis.call('SET', KEYS[1], '0:' .. ARGV[1], 'PX', ARGV[2]) return 0`;

interface Script {
  source: string;
  sha: string;
}

const script = (source: string): Script => ({ source, sha: createHash('sha1').update(source).digest('hex') });
const SCRIPTS = { take: script(TAKE), refund: script(REFUND), reset: script(RESET) };

type Fn = (...args: unknown[]) => Promise<unknown>;

/** The keys of one script call, and what the first of them is. */
interface Group {
  keys: string[];
  hasIp: boolean;
  /** The index in `send.destinations` of the group's first destination. */
  firstDestination: number;
}

/**
 * Send counts in Redis: every instance shares them. One script call per send (EVALSHA, the
 * source sent only when the server does not have it yet); on a Redis Cluster, whose scripts
 * touch one slot, one call for the client's count and one per destination (a destination
 * and its pairs share a hash tag, so one slot). Keys are hashed: no address, number or IP
 * in the clear.
 */
export class RedisLimitCounts implements LimitCounts {
  readonly #client: Record<string, unknown>;
  readonly #kind: LimitRedis['kind'];
  readonly #cluster: boolean;

  /** @param digestKey the key of the keys' digests (HMAC-SHA256): the same on every instance */
  constructor(
    redis: LimitRedis,
    private readonly prefix: string,
    private readonly digestKey: Buffer,
  ) {
    this.#client = redis.client as Record<string, unknown>;
    this.#kind = redis.kind;
    this.#cluster = 'masters' in this.#client || this.#client.isCluster === true;
  }

  async take(send: SendCounts): Promise<CountsTaken> {
    const { ip } = send;
    const keys = ip ? [`${this.prefix}i:${this.#hashed(ip.key)}`] : [];
    for (const d of send.destinations) {
      const tag = `{${this.#hashed(d.key)}}`;
      keys.push(`${this.prefix}d:${tag}`, `${this.prefix}p:${tag}:${this.#hashed(d.pair)}`);
    }
    const first = send.destinations[0];
    const args = [
      ip ? '1' : '0',
      String(ip?.limit ?? 0),
      String(ip?.windowMs ?? 0),
      String(first?.total ?? 0),
      String(first?.limit ?? 0),
      String(first?.windowMs ?? 0),
    ];
    const all: Group = { keys, hasIp: ip !== undefined, firstDestination: 0 };
    const groups = this.#cluster ? splitBySlot(all) : [all];
    const taken: Group[] = [];
    // `withIp`: a store failure takes nothing; a refused send, and the caller's refund (the
    // service refused the send), leave the client's count, which counts attempts.
    const undo = async (withIp: boolean) => {
      const groups = taken.splice(0);
      // Best effort: a refund that fails leaves the send counted, which errs on the safe side.
      await Promise.all(
        groups.map((g) => {
          const keys = g.hasIp && !withIp ? g.keys.slice(1) : g.keys;
          if (keys.length === 0) return undefined;
          return this.#run(SCRIPTS.refund, keys, [g.hasIp && withIp ? '1' : '0']).catch(() => {});
        }),
      );
    };
    const refund = () => undo(true);
    for (const group of groups) {
      let answer: unknown;
      try {
        answer = await this.#run(SCRIPTS.take, group.keys, [group.hasIp ? '1' : '0', ...args.slice(1)]);
      } catch (err) {
        await refund();
        throw err;
      }
      const [at, ttl] = (Array.isArray(answer) ? answer : []).map(Number) as [number?, number?];
      if (at === undefined || !Number.isInteger(at)) {
        await refund();
        throw new Error('unexpected answer from the limits script');
      }
      if (at > 0) {
        // A send refused at a destination stays counted against its client (an attempt).
        await undo(false);
        const index = at - 1 - (group.hasIp ? 1 : 0);
        const windowMs = index < 0 ? (ip?.windowMs ?? 0) : (first?.windowMs ?? 0);
        return {
          allowed: false,
          at: index < 0 ? 'ip' : group.firstDestination + Math.floor(index / 2),
          // A key without a TTL (never written so by us) is spent for a whole window.
          retryAfterMs: ttl !== undefined && ttl > 0 ? ttl : windowMs,
        };
      }
      taken.push(group);
    }
    return { allowed: true, refund: () => undo(false) };
  }

  async reset(destination: string, windowMs: number): Promise<void> {
    // An epoch no pair of this destination has been counted in: 48 random bits.
    const epoch = randomBytes(6).toString('base64url');
    const key = `${this.prefix}d:{${this.#hashed(destination)}}`;
    await this.#run(SCRIPTS.reset, [key], [epoch, String(windowMs)]);
  }

  /**
   * A key as Redis holds it: a keyed digest (128 bits), so a reader of the store can test no
   * guessed number, address or IP against it.
   */
  #hashed(key: string): string {
    return labelledDigest(this.digestKey, 'send limit key', key);
  }

  /**
   * One script call: refused at once while the client is disconnected; a client still making its
   * first connection is waited for (`whenReady`) within the same deadline as the answer.
   */
  async #run(s: Script, keys: string[], args: string[]): Promise<unknown> {
    const started = performance.now();
    if (!this.#ready()) await whenReady(this.#kind, this.#client, STORE_DEADLINE_MS);
    const left = Math.max(1, STORE_DEADLINE_MS - (performance.now() - started));
    try {
      return await withDeadline(this.#call(true, s, keys, args), left);
    } catch (err) {
      if (!(err instanceof Error) || !err.message.startsWith('NOSCRIPT')) throw err;
      // The server (or this cluster node) has not seen the script yet: send it once.
      return await withDeadline(this.#call(false, s, keys, args));
    }
  }

  #call(bySha: boolean, s: Script, keys: string[], args: string[]): Promise<unknown> {
    const c = this.#client;
    if (this.#kind === 'node-redis') {
      const name = bySha && typeof c.evalSha === 'function' ? 'evalSha' : 'eval';
      return (c[name] as Fn).call(c, name === 'evalSha' ? s.sha : s.source, { keys, arguments: args });
    }
    const name = bySha ? 'evalsha' : 'eval';
    return (c[name] as Fn).call(c, bySha ? s.sha : s.source, keys.length, ...keys, ...args);
  }

  #ready(): boolean {
    const c = this.#client;
    // node-redis sets isReady (a cluster client has none: its node clients queue, the deadline holds);
    // ioredis has status.
    if (this.#kind === 'node-redis') return c.isReady !== false;
    return c.status === 'ready';
  }
}

/** On a cluster: the client's count alone, then each destination with its pair (one slot each). */
function splitBySlot(all: Group): Group[] {
  const groups: Group[] = [];
  let i = 0;
  if (all.hasIp) groups.push({ keys: all.keys.slice(0, 1), hasIp: true, firstDestination: 0 });
  if (all.hasIp) i = 1;
  for (let d = 0; i < all.keys.length; i += 2, d += 1) {
    groups.push({ keys: all.keys.slice(i, i + 2), hasIp: false, firstDestination: d });
  }
  return groups;
}

function withDeadline<T>(promise: Promise<T>, ms = STORE_DEADLINE_MS): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${STORE_DEADLINE_MS} ms`)), ms);
  });
  return Promise.race([promise, deadline]).finally(() => clearTimeout(timer));
}
