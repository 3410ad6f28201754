import type { IncomingMessage, ServerResponse } from 'node:http';

/**
 * The host seam: everything the package needs from the web framework it runs in.
 *
 * Express and Connect hand middleware Node's own `(req, res, next)`; Fastify hands handlers
 * and hooks `(request, reply[, done])`, and @fastify/passport hands a strategy the request
 * alone. Every entry point of the package (send, status, the guards, the strategy) turns what it
 * was given into a Node request-like object and a Node `ServerResponse`; when the host is
 * Fastify, the response carries its reply, and every answer is written through `reply.send`, so
 * Fastify's `onSend` hooks run (both Fastify session plugins write their cookie there). Nothing
 * is configured: the host is told by the shape of what the package was given.
 */

/** A Fastify reply, as far as the package uses it (typed structurally: Fastify is not a dependency). */
export interface ReplyLike {
  raw: ServerResponse;
  sent: boolean;
  code(statusCode: number): unknown;
  header(name: string, value: unknown): unknown;
  send(payload?: unknown): unknown;
}

/** A Fastify request, as far as the package tells one apart. */
interface FastifyRequestLike {
  raw: IncomingMessage;
  server: object;
}

/** Where a Fastify reply is kept: on its raw response, and on its request by `otplessFastify()`. */
export const REPLY = Symbol.for('passport-otpless.reply');

interface WithReply {
  [REPLY]?: ReplyLike;
}

/** True for a Fastify reply (Express's `res` has `send` too, but no `raw` and no `code`). */
export function isReply(value: unknown): value is ReplyLike {
  if (!value || typeof value !== 'object') return false;
  const candidate = value as Partial<ReplyLike>;
  return (
    typeof candidate.code === 'function' &&
    typeof candidate.send === 'function' &&
    typeof candidate.raw === 'object' &&
    candidate.raw !== null
  );
}

/** True for a Fastify request: it wraps Node's request in `raw` and names its server. */
export function isFastifyRequest(req: unknown): boolean {
  if (!req || typeof req !== 'object') return false;
  const candidate = req as Partial<FastifyRequestLike>;
  return typeof candidate.raw === 'object' && candidate.raw !== null && typeof candidate.server === 'object';
}

/** Links a Fastify reply to its raw response and its request, so a writer given either finds it. */
export function linkReply(request: object, reply: ReplyLike): void {
  (reply.raw as WithReply)[REPLY] = reply;
  (request as WithReply)[REPLY] = reply;
}

/** The Fastify reply behind a response, if the host is Fastify. */
export function replyOf(res: ServerResponse): ReplyLike | undefined {
  return (res as WithReply)[REPLY];
}

/** Where a Connect request keeps its response, once `sessionCompat()` has seen both. */
const RESPONSE = Symbol.for('passport-otpless.response');

/** Links a Node response to its request (Connect sets no `req.res`); not enumerable. */
export function linkResponse(req: object, res: ServerResponse): void {
  if ((req as { res?: unknown }).res === res) return;
  Object.defineProperty(req, RESPONSE, { value: res, configurable: true, enumerable: false });
}

/**
 * The response of a request, when the request leads to it: Express sets `req.res`; on Fastify,
 * `otplessFastify()` links the reply; on Connect, `sessionCompat()` links the response.
 */
export function responseOf(req: object): ServerResponse | undefined {
  const res = (req as { res?: unknown }).res;
  if (res && typeof res === 'object' && typeof (res as ServerResponse).setHeader === 'function') {
    return res as ServerResponse;
  }
  return (req as WithReply)[REPLY]?.raw ?? (req as { [RESPONSE]?: ServerResponse })[RESPONSE];
}

/**
 * What an entry point was given, as Node's `(req, res, next)`: on Fastify, the reply's raw
 * response (linked to the reply) and, for a route handler (which has no `next`), errors sent
 * through the reply to Fastify's error handler.
 */
export function nodeArgs<Req extends object>(
  req: Req | FastifyRequestShape,
  res: ServerResponse | ReplyLike,
  next?: ((err?: never) => void) | undefined,
): [Req, ServerResponse, (err?: unknown) => void] {
  // Express's and Fastify's `next` both take any error: typed `never` only so both fit here.
  const given = next as ((err?: unknown) => void) | undefined;
  // A Fastify request has every field the package reads (headers, method, url, body, query,
  // session, socket): it is read as it is, never through `raw`, which lacks the parsed body.
  const request = req as Req;
  if (!isReply(res)) return [request, res, given ?? fallbackNext(res)];
  linkReply(request, res);
  return [request, res.raw, given ?? ((err?: unknown) => void res.send(err ?? new Error('Not found')))];
}

/** The arguments every handler of the package takes, on any host. */
export type HostArgs<Req> = [
  req: Req | FastifyRequestShape,
  res: ServerResponse | ReplyLike,
  next?: ((err?: never) => void) | undefined,
];

/** A handler given no `next` (a bare Node server): errors end the response with a 500. */
function fallbackNext(res: ServerResponse): (err?: unknown) => void {
  return (err) => {
    if (res.headersSent) return void res.destroy();
    const status = (err as { status?: unknown } | undefined)?.status;
    writeAnswer(res, typeof status === 'number' && status >= 400 ? status : err ? 500 : 404, {}, undefined);
  };
}

/** Sets a header on the answer to come (on Fastify, on the reply, so hooks see it). */
export function setHeader(res: ServerResponse, name: string, value: string | number): void {
  const reply = replyOf(res);
  if (reply) reply.header(name, value);
  else res.setHeader(name, value);
}

/** True once the answer has started (or, on Fastify, was handed to `reply.send`). */
export function answered(res: ServerResponse): boolean {
  return replyOf(res)?.sent === true || res.headersSent;
}

/**
 * Writes a whole answer: status, headers, body. On Fastify through `reply.send` (its `onSend`
 * hooks write the session cookie); elsewhere on Node's response, with its length. Every answer
 * says `X-Content-Type-Options: nosniff`: a JSON answer or a redirect's empty body must never be
 * read by a browser as a script or a page.
 */
export function writeAnswer(
  res: ServerResponse,
  status: number,
  given: Readonly<Record<string, string | number>>,
  body: string | undefined,
): void {
  // nosniff first, so a header of `given` by that name still wins (as a spread of both would);
  // no merged copy of the headers, and no pair per header (own names only: a polluted
  // prototype adds no header).
  const reply = replyOf(res);
  if (reply) {
    reply.code(status);
    reply.header('X-Content-Type-Options', 'nosniff');
    for (const name of Object.keys(given)) reply.header(name, given[name]);
    // No body (a redirect) is sent as none: Fastify then reads no content type and writes
    // `Content-Length: 0` itself, where an empty string would be typed text/plain.
    if (body === undefined) reply.send();
    else reply.send(body);
    return;
  }
  res.statusCode = status;
  res.setHeader('X-Content-Type-Options', 'nosniff');
  for (const name of Object.keys(given)) {
    const value = given[name] as string | number;
    res.setHeader(name, name === 'Set-Cookie' ? withEarlierCookies(res, String(value)) : value);
  }
  res.setHeader('Content-Length', body === undefined ? 0 : Buffer.byteLength(body));
  res.end(body);
}

/**
 * A cookie of the package added to those the app's own middleware set on this answer before
 * (`res.cookie()`), never replacing them. (Fastify's `reply.header` adds a `set-cookie` itself.)
 */
function withEarlierCookies(res: ServerResponse, cookie: string): string | string[] {
  const earlier = answerCookies(res);
  return earlier ? [...earlier, cookie] : cookie;
}

/**
 * The `Set-Cookie` values of an answer so far, whoever set them: on the Node response, or on the
 * Fastify reply that keeps its own headers. `undefined` when the answer sets no cookie header.
 */
export function answerCookies(res: ServerResponse): string[] | undefined {
  const reply = replyOf(res) as { getHeader?(name: string): unknown } | undefined;
  const set: unknown = res.getHeader('set-cookie') ?? reply?.getHeader?.('set-cookie');
  if (set === undefined) return undefined;
  return Array.isArray(set) ? set.map(String) : [String(set)];
}

/** A Fastify request as the package's handlers accept it (typed structurally). */
export interface FastifyRequestShape {
  raw: IncomingMessage;
  headers: IncomingMessage['headers'];
  method: string;
  url: string;
  body?: unknown;
  query?: unknown;
}

/**
 * A handler of the package: Node middleware `(req, res, next)` for Express and Connect, and a
 * Fastify route handler `(request, reply)` or callback-style hook `(request, reply, done)`.
 */
export interface HostHandler<Req> {
  (req: Req, res: ServerResponse, next: (err?: unknown) => void): void;
  (request: FastifyRequestShape, reply: ReplyLike, done?: (err?: Error) => void): void;
}
