/**
 * Waiting for the click: the first landing URL from the local listener or from another source
 * (a paste, a test), or nothing once the time is up.
 */

import type { CallbackListener } from './listener.js';

/** The link is out: what the person (or a test) needs to open it and hand back where it landed. */
export interface SentLink {
  /** The redirect_uri sent (holds no secret). */
  redirectUri: string;
  /** Where links went. */
  sentTo: Array<'e-mail' | 'mobile'>;
  /** True when the local listener waits for the browser on this machine. */
  listening: boolean;
  /** How long the check waits, in ms. */
  timeoutMs: number;
  /** This is the second opening of the same link (`openTwice`): the first played a mail scanner. */
  again?: boolean;
}

/**
 * Another way to the landing URL: resolves with the URL the browser landed on, or `undefined`
 * to leave it to the listener. `signal` aborts once the landing came another way or time is up.
 */
export type LandingSource = (link: SentLink, signal: AbortSignal) => Promise<string | undefined>;

/**
 * The first landing URL, or `undefined` after `link.timeoutMs`. A source that resolves
 * `undefined` or fails (stdin closed, a test that clicked through to the listener) leaves the
 * others to answer.
 */
export async function waitForLanding(
  listener: CallbackListener | undefined,
  other: LandingSource | undefined,
  link: SentLink,
): Promise<string | undefined> {
  const abort = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  const never = new Promise<never>(() => {});
  const sources: Array<Promise<string | undefined>> = [
    new Promise<undefined>((resolve) => (timer = setTimeout(resolve, link.timeoutMs, undefined))),
  ];
  if (listener) sources.push(listener.landed.then((landing) => landing.url));
  if (other) {
    sources.push(
      other(link, abort.signal).then(
        (url) => url ?? never,
        () => never,
      ),
    );
  }
  try {
    return await Promise.race(sources);
  } finally {
    clearTimeout(timer);
    abort.abort();
  }
}

/** A wait as a person reads it: `5 min`, `90 s`. */
export function describeWait(ms: number): string {
  return ms % 60_000 === 0 ? `${ms / 60_000} min` : `${Math.round(ms / 1000)} s`;
}
