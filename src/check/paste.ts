/**
 * The landing URL pasted into the terminal: for a link opened on a phone, whose browser cannot
 * reach the check's listener on 127.0.0.1 but still shows where it tried to go.
 */

import { createInterface } from 'node:readline';
import type { Readable } from 'node:stream';
import { cleanLandingUrl } from './landing.js';

/**
 * Resolves with the first line of `input` that is a URL with a query or fragment, `undefined`
 * when `input` ends first or `signal` aborts. Other lines get a hint on `hint`.
 */
export function readPastedUrl(
  input: Readable,
  signal: AbortSignal,
  hint: (line: string) => void,
): Promise<string | undefined> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve(undefined);
    const lines = createInterface({ input, terminal: false });
    let done = false;
    const finish = (value: string | undefined) => {
      if (done) return;
      done = true;
      signal.removeEventListener('abort', onAbort);
      lines.close();
      resolve(value);
    };
    const onAbort = () => finish(undefined);
    signal.addEventListener('abort', onAbort);
    lines.on('line', (line) => {
      if (line.trim() === '') return;
      const url = cleanLandingUrl(line);
      if (url && (url.search !== '' || url.hash !== '')) finish(url.href);
      // The line may hold a code: it is never repeated.
      else hint('That is not the URL the link landed on (it has a ?code=...). Paste the whole address.');
    });
    lines.on('close', () => finish(undefined));
  });
}
