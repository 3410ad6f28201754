import type { IncomingMessage, ServerResponse } from 'node:http';
import type { EmulatorContext } from '../context.js';
import { sendHtml, sendJson } from '../http.js';
import { inboxPage } from '../inbox.js';

/** GET / on the auth host: the dev inbox page. */
export function showInbox(ctx: EmulatorContext, _req: IncomingMessage, res: ServerResponse): void {
  const sent = ctx.store.outbox().map(({ entry, login }) => ({
    entry,
    // A login may have been swept or evicted while its outbox entry stays.
    login: ctx.store.findBySessionToken(login.sessionToken),
  }));
  sendHtml(res, 200, inboxPage(sent, ctx.clock.now(), { authUrl: ctx.authUrl }, ctx.store.notDelivered()));
}

/**
 * GET /__emulator/outbox (OUTBOX_PATH): the outbox as JSON, `{ entries }` newest last (like
 * `emulator.outbox()`), without session tokens unless `exposeSessionTokens` (tests): any page on
 * this machine's browser may read a loopback URL's answer it is handed, and a token is a login.
 */
export function showOutbox(ctx: EmulatorContext, _req: IncomingMessage, res: ServerResponse): void {
  const entries = ctx.store.outbox().map(({ entry }) => {
    if (ctx.exposeSessionTokens) return entry;
    const { sessionToken: _hidden, ...shown } = entry;
    return shown;
  });
  sendJson(res, 200, { entries }, { 'cache-control': 'no-store' });
}
