import type { OtplessClient } from '../client/index.js';
import type { FlowStore } from '../stores/types.js';
import { readIsoTime } from '../wire/time.js';
import type { TokenValidationResult } from '../wire/types.js';
import { isRejectedByService } from './failures.js';

/**
 * What the service's validate-token `verifiedAt` stamps (unknown 8 of docs/service-facts.md):
 * the sign-in (`'signIn'`), or each answer (`'answer'`).
 */
export type VerifiedAtMeaning = 'signIn' | 'answer';

/**
 * The `tokenVerifiedAt` option: what `npx otpless-check` found (finding `verifiedAt`), or
 * `'learn'`: the package finds out itself from the first frontend-token logins.
 */
export type TokenVerifiedAtOption = 'signIn' | 'answer' | 'learn';

export const TOKEN_VERIFIED_AT_OPTIONS: readonly TokenVerifiedAtOption[] = ['learn', 'signIn', 'answer'];

/**
 * What the store holds once learned: a meaning, or `'singleUse'` when the service refused a
 * token's second validation (it is then dead at the service before its used mark lapses).
 */
export type LearnedTokenTimes = VerifiedAtMeaning | 'singleUse';

/** A used token is validated again at the first token login at least this long after it... */
export const PROBE_AFTER_MS = 2_500;
/**
 * ...and at most this long: a service that refuses it by then kills tokens within a minute of
 * use, before the shortest used mark (`maxAuthAgeMs` of 1 s + 60 s of skew) lapses.
 */
export const PROBE_WITHIN_MS = 60_000;
/** How long a token accepted while nothing is known stays marked used. */
export const UNLEARNED_MARK_MS = 86_400_000;
/** How long a safe answer holds before it is learned again (the service may change). */
const SAFE_FACT_MS = 86_400_000;
/**
 * How long `'answer'` holds: longer than any mark of a token accepted before it was learned, so
 * none of them signs in again once its mark lapses.
 */
const ANSWER_FACT_MS = 365 * 86_400_000;
/**
 * How long an instance keeps what it read from the store before reading it again: a token login
 * then makes no store round trip for it. The store holds a fact a day or more, and every instance
 * holds the store's one value (the first learned is kept), so a copy this young is never another.
 */
export const HELD_FOR_MS = 5 * 60_000;
/** The store key of what was learned (not under `token:`: the memory store's marks budget). */
export const TOKEN_TIMES_KEY = 'fact:verifiedAt';

/** A stamp that reads to the second at least: a 2.5 s gap moves it if it dates the answer. */
const TO_THE_SECOND = /T\d{2}:\d{2}:\d{2}/;

/** A token accepted while nothing was known, kept to validate once more. */
interface Probe {
  token: string;
  authAt: number;
  at: number;
}

/**
 * The latest identity `verifiedAt` of a validation (read strictly, src/wire/time.ts), and
 * whether that stamp reads to the second; `undefined` when none reads.
 */
export function latestVerifiedAt(validated: TokenValidationResult): { at: number; toTheSecond: boolean } | undefined {
  let latest: { at: number; toTheSecond: boolean } | undefined;
  for (const identity of validated.identities) {
    const at = readIsoTime(identity.verifiedAt);
    if (at !== undefined && (latest === undefined || at > latest.at)) {
      latest = { at, toTheSecond: TO_THE_SECOND.test(identity.verifiedAt as string) };
    }
  }
  return latest;
}

/**
 * Whether frontend-token logins may rest on `verifiedAt`, learned at run time when the app has
 * not said (`tokenVerifiedAt: 'learn'`, the default). The first token accepted while nothing is
 * known becomes a probe; the first token login 2.5 to 60 s later validates it again: the same
 * `verifiedAt` means it dates the sign-in; a later one that it dates each answer (every
 * frontend token is then refused, and the operator warned, `OTPLESS_TOKEN_REPLAYABLE`); a
 * refusal that the service kills used tokens itself. What was learned is kept in the store,
 * shared by every instance. Until then each accepted token's used mark lives 24 hours instead of
 * `maxAuthAgeMs + 60 s`, so no answer can let a used token in again.
 */
export class TokenTimes {
  #probe: Probe | undefined;
  #learning: Promise<LearnedTokenTimes | undefined> | undefined;
  /** What the store held when last read, and until when that copy is used. */
  #held: { value: LearnedTokenTimes; until: number } | undefined;

  constructor(
    private readonly store: FlowStore,
    private readonly client: OtplessClient,
    private readonly option: TokenVerifiedAtOption,
    private readonly now: () => number = () => Date.now(),
  ) {}

  /**
   * What is known now: the option, else what the store holds, else what a due probe shows (one
   * more validate-token call, once); `undefined` while nothing is.
   */
  async known(): Promise<LearnedTokenTimes | undefined> {
    if (this.option !== 'learn') return this.option;
    if (this.#held !== undefined && this.now() < this.#held.until) return this.#held.value;
    const held = this.#hold(await this.store.get(TOKEN_TIMES_KEY));
    if (held !== undefined) return held;
    // Logins that came while the probe is asked about share its one call.
    if (this.#learning !== undefined) return this.#learning;
    const probe = this.#probe;
    if (probe === undefined) return undefined;
    const age = this.now() - probe.at;
    if (age < PROBE_AFTER_MS) return undefined;
    if (age > PROBE_WITHIN_MS) {
      this.#probe = undefined;
      return undefined;
    }
    this.#learning = this.#learn(probe).finally(() => {
      this.#learning = undefined;
    });
    return this.#learning;
  }

  /** A token signed in while nothing was known: kept as the probe, unless one is waiting. */
  accepted(token: string, validated: TokenValidationResult): void {
    if (this.option !== 'learn' || this.#probe !== undefined) return;
    const stamp = latestVerifiedAt(validated);
    // A stamp to the minute may not move in 2.5 s: such a token proves nothing.
    if (stamp === undefined || !stamp.toTheSecond) return;
    this.#probe = { token, authAt: stamp.at, at: this.now() };
  }

  async #learn(probe: Probe): Promise<LearnedTokenTimes | undefined> {
    this.#probe = undefined;
    let learned: LearnedTokenTimes;
    try {
      const again = latestVerifiedAt(await this.client.validateToken(probe.token));
      learned = again !== undefined && again.at === probe.authAt ? 'signIn' : 'answer';
    } catch (err) {
      // No answer says nothing: the next accepted token is the next probe.
      if (!isRejectedByService(err)) return undefined;
      learned = 'singleUse';
    }
    await this.store.create(TOKEN_TIMES_KEY, learned, learned === 'answer' ? ANSWER_FACT_MS : SAFE_FACT_MS);
    // Another instance may have learned first: what the store holds is what every instance uses.
    return this.#hold(await this.store.get(TOKEN_TIMES_KEY)) ?? learned;
  }

  /** What the store gave, kept for `HELD_FOR_MS` when it is a fact; nothing kept otherwise. */
  #hold(stored: string | undefined): LearnedTokenTimes | undefined {
    const value = asLearned(stored);
    this.#held = value === undefined ? undefined : { value, until: this.now() + HELD_FOR_MS };
    return value;
  }
}

function asLearned(value: string | undefined): LearnedTokenTimes | undefined {
  return value === 'signIn' || value === 'answer' || value === 'singleUse' ? value : undefined;
}
