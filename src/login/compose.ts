import { randomBytes } from 'node:crypto';
import { OtplessClient } from '../client/index.js';
import type { OtplessClientOptions } from '../client/index.js';
import { deriveKey } from '../crypto.js';
import { Handoff } from '../flow/handoff.js';
import { StoreSecrets } from '../flow/seal.js';
import { SendLimiter } from '../limits/index.js';
import { checkSendLimits } from '../limits/options.js';
import { optionError, optionsObject } from '../options.js';
import { MemoryFlowStore } from '../stores/memory.js';
import { REDIS_CLIENT_EXPECTED, RedisFlowStore, redisCommandsOf } from '../stores/redis.js';
import type { FlowStore } from '../stores/types.js';
import { PREFIX } from './options.js';
import type { MagicLinkStrategyOptions } from './options.js';
import { warnIfScannersSignIn } from './scannerWarning.js';
import { checkStrategyOptions } from './optionTable.js';
import { TokenTimes } from './tokenTimes.js';
import type { CheckedStrategyOptions } from './optionTable.js';

/**
 * The composition root of a login: the checked options and every part built from them, once,
 * when the strategy is made. The strategy, its routes and its pages all read this one object.
 */
export interface LoginSetup extends CheckedStrategyOptions {
  client: OtplessClient;
  /** Flows and used-token marks. */
  store: FlowStore;
  /** False while flows and marks are in this process's memory. */
  sharedState: boolean;
  /** The keys of what the stores hold. */
  secrets: StoreSecrets;
  /** Present in 'handoff' mode. */
  handoff: Handoff | undefined;
  limiter: SendLimiter | undefined;
  /** Seals what the waiting page keeps in the session to send the link again. */
  resendKey: Buffer;
  /** Whether frontend-token logins may rest on `verifiedAt`: said by an option, or learned. */
  tokenTimes: TokenTimes;
  /**
   * Set by a mount with `passkeys` on: a link login then remembers what it verified for the
   * offer; without one it keeps nothing (no WeakMap entry a login would pay for).
   */
  offersPasskeys: boolean;
}

/** Where a strategy keeps its setup, for the routes mounted around it (not enumerable). */
export const LOGIN_SETUP = Symbol.for('passport-otpless.login-setup');

/**
 * Where a strategy keeps its `verify`, run in whichever style it was written, for a sign-in the
 * mount finishes itself (a passkey's); on the setup, not enumerable.
 */
export const LOGIN_VERIFY = Symbol.for('passport-otpless.login-verify');

/** The app's `verify` as the mount runs it: a user, or the refusal `verify` gave. */
export type LoginVerifier = (
  req: object,
  profile: object,
) => Promise<{ user: unknown; info: { message?: string } | undefined }>;

/** The setup of a `MagicLinkStrategy`, or a TypeError naming who was given something else. */
export function setupOf(owner: string, strategy: unknown): LoginSetup {
  const setup =
    typeof strategy === 'object' && strategy !== null
      ? (strategy as { [LOGIN_SETUP]?: LoginSetup })[LOGIN_SETUP]
      : undefined;
  if (setup === undefined) throw new TypeError(`${owner}: the first argument must be a MagicLinkStrategy`);
  return setup;
}

/**
 * Checks the options (src/login/options.ts) and builds the parts: the client, the store of
 * flows and used tokens, the secrets their keys derive from, the handoff and the send limiter.
 */
export function composeLogin(input: MagicLinkStrategyOptions): LoginSetup {
  const checked = checkStrategyOptions(input);
  warnIfScannersSignIn(checked);
  // The parts are built from own keys only, as the checks read them (see `optionsObject`).
  const options = optionsObject<MagicLinkStrategyOptions>(PREFIX, input, 'an object');
  const given = storeOf(options);
  // One store for flows and used-token marks (the memory store gives marks their own budget).
  const store = given ?? new MemoryFlowStore();
  const sharedState = given !== undefined && !(given instanceof MemoryFlowStore);
  const secret = storeSecretOf(options, sharedState);
  const secrets = new StoreSecrets(secret);
  const limiter = limiterOf(options.limits, given instanceof RedisFlowStore ? given : undefined, secret);
  const client = clientOf(options);
  return {
    ...checked,
    client,
    store,
    sharedState,
    secrets,
    handoff: checked.crossDevice === 'handoff' ? new Handoff(store, secrets) : undefined,
    limiter,
    resendKey: deriveKey(secret, 'waiting page resend v1'),
    tokenTimes: new TokenTimes(store, client, checked.tokenVerifiedAt),
    offersPasskeys: false,
  };
}

/** The `client` option, or a client built from the client's own options (which it checks, naming each). */
function clientOf(options: MagicLinkStrategyOptions): OtplessClient {
  if (options.client !== undefined) {
    if (!(options.client instanceof OtplessClient)) throw optionError(PREFIX, 'client', 'an OtplessClient');
    return options.client;
  }
  const { clientId, clientSecret, authUrl, userAuthUrl, timeoutMs, maxResponseBytes, connections } = options;
  return new OtplessClient({
    clientId,
    clientSecret,
    authUrl,
    userAuthUrl,
    timeoutMs,
    maxResponseBytes,
    connections,
  } as OtplessClientOptions);
}

/**
 * The `store` option: a Redis client becomes a `RedisFlowStore` under `storePrefix`; a
 * `FlowStore` is used as it is. `undefined` when not given.
 */
function storeOf(options: MagicLinkStrategyOptions): FlowStore | undefined {
  const { store, storePrefix } = options;
  if (store === undefined) return undefined;
  if (isFlowStore(store)) return store;
  if (!redisCommandsOf(store)) throw optionError(PREFIX, 'store', `${REDIS_CLIENT_EXPECTED}, or a FlowStore`);
  return new RedisFlowStore({ client: store, prefix: storePrefix ?? 'otpless:' });
}

/**
 * `false` turns limits off; a `SendLimiter` is used as it is; options (or nothing) build one,
 * counting in the `store` option's Redis when there is one.
 */
function limiterOf(
  limits: MagicLinkStrategyOptions['limits'],
  redis: RedisFlowStore | undefined,
  secret: string | Buffer,
): SendLimiter | undefined {
  if (limits === false) return undefined;
  if (limits instanceof SendLimiter) return limits;
  // Checked here first, so that errors name `limits.<option>` of the strategy.
  checkSendLimits(PREFIX, limits, 'limits.');
  // In the store's Redis the keys are digests under the store secret, alike on every instance.
  return new SendLimiter(limits, redis ? { redis: redis.redis, prefix: redis.prefix, secret } : undefined);
}

/**
 * The secret of the stores' keys: `storeSecret`, else the client secret. A strategy given a
 * ready `client` has no client secret to read: one process may use a random secret of its
 * own, several instances sharing a store must be given the same one.
 */
function storeSecretOf(options: MagicLinkStrategyOptions, shared: boolean): string | Buffer {
  const { storeSecret } = options;
  // Its form is checked by the table (STRATEGY_OPTIONS); whether it is needed, here.
  if (storeSecret !== undefined) return storeSecret;
  if (options.client === undefined && typeof options.clientSecret === 'string' && options.clientSecret !== '') {
    return options.clientSecret;
  }
  if (shared) {
    throw optionError(
      PREFIX,
      'storeSecret',
      'a secret of at least 32 characters, the same on every instance, when a client is given with a shared store',
    );
  }
  return randomBytes(32);
}

function isFlowStore(value: unknown): value is FlowStore {
  const store = value as Partial<FlowStore> | null;
  return (
    typeof store === 'object' &&
    store !== null &&
    ['create', 'get', 'swap', 'take'].every((m) => typeof (store as Record<string, unknown>)[m] === 'function')
  );
}
