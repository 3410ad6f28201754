/**
 * The check's local callback: a one-shot HTTP server on 127.0.0.1 that the magic link redirects
 * to when it is opened on this machine. It takes the first two landings (the second for
 * `openTwice`) and answers a page that shows nothing of them (the URL holds a one-time code).
 */

import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** Where the browser landed, as the listener rebuilt it. */
export interface Landing {
  /** The absolute URL, query and (when the page's script forwarded it) fragment included. */
  url: string;
}

/** A running listener. */
export interface CallbackListener {
  /** `http://127.0.0.1:PORT/callback`: the base of the check's redirect_uri. */
  readonly callbackUrl: string;
  /** Resolves with the first landing. */
  readonly landed: Promise<Landing>;
  /** Resolves with the second landing (the link opened again, `openTwice`). */
  readonly second: Promise<Landing>;
  /** Stops listening and drops open connections. Idempotent. */
  close(): Promise<void>;
}

const CALLBACK_PATH = '/callback';
/** Where the page's script forwards a landing the server cannot see whole (a code in the fragment). */
const FORWARD_PATH = '/landed';
const HOST = '127.0.0.1';

const PAGE_HEADERS = {
  'content-type': 'text/html; charset=utf-8',
  // The URL carries a one-time code: not cached, not sent on as Referer.
  'cache-control': 'no-store',
  'referrer-policy': 'no-referrer',
};

const DONE_PAGE =
  '<!doctype html><meta charset="utf-8"><title>otpless-check</title>' +
  '<p>otpless-check received the link. Close this tab and go back to the terminal.</p>';

/**
 * Browsers never send the fragment, so a service that put the code there would look like no code
 * at all: this page sends query and fragment back in a second request. Without script, nothing
 * comes back and the person pastes the URL instead.
 */
const FORWARD_PAGE =
  '<!doctype html><meta charset="utf-8"><title>otpless-check</title>' +
  '<p>otpless-check is reading the link...</p><script>' +
  `location.replace('${FORWARD_PATH}?q=' + encodeURIComponent(location.search.slice(1)) +` +
  " '&h=' + encodeURIComponent(location.hash.slice(1)));</script>";

/** Query parameters other than the check's own flow parameter: the service added something. */
function hasServiceParams(search: URLSearchParams, flowParam: string): boolean {
  return [...search.keys()].some((name) => name !== flowParam);
}

/**
 * Starts the listener on 127.0.0.1 (`port` 0: any free port).
 * @param flowParam the check's own parameter in redirect_uri, which alone does not make a landing
 */
export async function startListener(port: number, flowParam: string): Promise<CallbackListener> {
  let resolveLanded!: (landing: Landing) => void;
  const landed = new Promise<Landing>((resolve) => (resolveLanded = resolve));
  let resolveSecond!: (landing: Landing) => void;
  const second = new Promise<Landing>((resolve) => (resolveSecond = resolve));
  let taken = 0;
  let base = '';

  const take = (url: string, res: ServerResponse): void => {
    res.writeHead(200, PAGE_HEADERS).end(taken >= 2 ? DONE_PAGE.replace('received', 'already received') : DONE_PAGE);
    taken += 1;
    if (taken === 1) resolveLanded({ url });
    if (taken === 2) resolveSecond({ url });
  };

  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', base);
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405, { allow: 'GET' }).end();
    } else if (url.pathname === CALLBACK_PATH) {
      if (hasServiceParams(url.searchParams, flowParam)) take(url.href, res);
      else res.writeHead(200, PAGE_HEADERS).end(FORWARD_PAGE);
    } else if (url.pathname === FORWARD_PATH) {
      const query = url.searchParams.get('q') ?? '';
      const fragment = url.searchParams.get('h') ?? '';
      take(`${base}${CALLBACK_PATH}${query === '' ? '' : `?${query}`}${fragment === '' ? '' : `#${fragment}`}`, res);
    } else {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
    }
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, HOST, () => {
      server.off('error', reject);
      resolve();
    });
  });
  base = `http://${HOST}:${(server.address() as AddressInfo).port}`;

  let closing: Promise<void> | undefined;
  return {
    callbackUrl: `${base}${CALLBACK_PATH}`,
    landed,
    second,
    close() {
      closing ??= new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      return closing;
    },
  };
}
