import type { EventEmitter } from 'node:events';

type Listener = () => void;

function expire(deadline: Deadline): void {
  deadline.expire();
}

/**
 * A per-request time limit that undici accepts as its `signal`.
 *
 * undici takes an AbortSignal or anything EventEmitter-like (`once`, `removeListener`,
 * `aborted`, `reason`). An AbortController plus its listener costs about 6 µs per request
 * here (EventTarget), a sizeable share of a keep-alive call; this object costs next to nothing.
 * Only the timer aborts it.
 */
export class Deadline {
  aborted = false;
  reason: Error | undefined = undefined;
  #listeners: Listener[] = [];
  readonly #timer: NodeJS.Timeout;

  constructor(ms: number) {
    this.#timer = setTimeout(expire, ms, this);
  }

  /** For undici: `signal.once('abort', listener)`. */
  once(_event: 'abort', listener: Listener): this {
    this.#listeners.push(listener);
    return this;
  }

  /** For undici: `signal.removeListener('abort', listener)`. */
  removeListener(_event: 'abort', listener: Listener): this {
    const i = this.#listeners.indexOf(listener);
    if (i !== -1) this.#listeners.splice(i, 1);
    return this;
  }

  /** undici checks that a signal has `on` or `addEventListener`. */
  on(event: 'abort', listener: Listener): this {
    return this.once(event, listener);
  }

  /** Called by the timer: marks the request timed out and lets undici tear it down. */
  expire(): void {
    if (this.aborted) return;
    this.aborted = true;
    this.reason = new Error('request deadline passed');
    const listeners = this.#listeners;
    this.#listeners = [];
    for (const listener of listeners) listener();
  }

  /** Stops the timer once the request is over, whatever its outcome. */
  clear(): void {
    clearTimeout(this.#timer);
  }

  /** The type undici declares for `signal`; it only ever calls the members above. */
  asSignal(): EventEmitter {
    return this as unknown as EventEmitter;
  }
}
