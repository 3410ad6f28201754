import { OtplessRequestError } from '../errors/index.js';
import type { HttpRequest } from '../web/request.js';
import { mediaType } from '../web/request.js';

/** A form or JSON body of a sign-in is a few hundred bytes: anything past this is refused. */
export const MAX_BODY_BYTES = 16 * 1024;

/**
 * Parses the body of a POST to the mount when no body parser ran (`req.body` undefined), so the
 * app needs none: `application/x-www-form-urlencoded` and `application/json`, up to 16 KiB.
 * Other media types are left unparsed (the route answers them 415). A repeated form field
 * becomes an array, which the routes refuse, rather than one value chosen.
 *
 * A body the host parsed already (Fastify, NestJS, an app's `express.json()`, each with a limit
 * of its own, 1 MiB or 100 KB) is held to the same 16 KiB: by its `Content-Length`, or, sent
 * without one, by its parsed value's JSON. One limit on every host: 413 `BODY_TOO_LARGE`.
 */
export async function readBodyIfNeeded(req: HttpRequest): Promise<void> {
  if (req.method !== 'POST' && req.method !== 'PUT') return;
  if (req.body === NOT_JSON) throw notJsonError();
  if (req.body !== undefined) {
    if (parsedSize(req) > MAX_BODY_BYTES) throw tooLargeError();
    return;
  }
  const type = mediaType(req);
  if (type !== 'application/json' && type !== 'application/x-www-form-urlencoded') return;
  const text = await readText(req);
  if (type === 'application/x-www-form-urlencoded') {
    req.body = parseFormBody(text);
    return;
  }
  const body = parseJsonBody(text);
  if (body === NOT_JSON) throw notJsonError();
  req.body = body;
}

/**
 * What a host's JSON parser for the mount's routes (the Fastify plug-in's) hands on for a body
 * that is not JSON, instead of failing in the host's own words: the route then answers it as on
 * every other host, 400 `INVALID_INPUT` in the mount's JSON or error page.
 */
export const NOT_JSON: unique symbol = Symbol('passport-otpless.not-json');

/** A JSON body's value (`{}` for an empty one), or `NOT_JSON`. */
export function parseJsonBody(text: string): unknown {
  if (text.trim() === '') return {};
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return NOT_JSON;
  }
}

function notJsonError(): OtplessRequestError {
  return new OtplessRequestError(400, 'INVALID_INPUT', 'The request body is not valid JSON.');
}

/**
 * A form body as the routes read it: own keys only (no prototype), and a repeated field an
 * array, which the routes refuse, rather than one value chosen.
 */
export function parseFormBody(text: string): Record<string, string | string[]> {
  const body: Record<string, string | string[]> = Object.create(null) as Record<string, string | string[]>;
  for (const [key, value] of new URLSearchParams(text)) {
    const seen = body[key];
    body[key] = seen === undefined ? value : ([] as string[]).concat(seen, value);
  }
  return body;
}

/** The size of a body parsed before the mount: its `Content-Length`, else its JSON's length. */
function parsedSize(req: HttpRequest): number {
  const length = req.headers['content-length'];
  if (length !== undefined) return Number(length);
  try {
    return Buffer.byteLength(JSON.stringify(req.body) ?? '');
  } catch {
    // Not JSON (a parser of the app's own, say): nothing to measure it by.
    return 0;
  }
}

function tooLargeError(): OtplessRequestError {
  return new OtplessRequestError(413, 'BODY_TOO_LARGE', 'The request body is too large for a sign-in.');
}

function readText(req: HttpRequest): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const tooLarge = (): void => {
      req.removeAllListeners('data');
      // Drained, not destroyed: the answer still has to reach the client.
      req.resume();
      reject(tooLargeError());
    };
    if (Number(req.headers['content-length'] ?? 0) > MAX_BODY_BYTES) return tooLarge();
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) return tooLarge();
      chunks.push(chunk);
    });
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}
