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
  sendHtml(res, 200, inboxPage(sent, ctx.clock.now(), { authUrl: ctx.authUrl }));
}

/** GET /__emulator/outbox (OUTBOX_PATH): the outbox as JSON, `{ entries }` newest last (like `emulator.outbox()`). */
export function showOutbox(ctx: EmulatorContext, _req: IncomingMessage, res: ServerResponse): void {
  sendJson(res, 200, { entries: ctx.store.outbox().map(({ entry }) => entry) }, { 'cache-control': 'no-store' });
}
