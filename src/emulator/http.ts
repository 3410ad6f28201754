import type { IncomingMessage, OutgoingHttpHeaders, ServerResponse } from 'node:http';
import { apiError } from './errors.js';

/** Largest request body accepted. */
export const MAX_BODY_BYTES = 64 * 1024;

const JSON_TYPE = 'application/json; charset=utf-8';

export function sendJson(res: ServerResponse, status: number, body: unknown, headers: OutgoingHttpHeaders = {}): void {
  sendRaw(res, status, JSON.stringify(body), { 'content-type': JSON_TYPE, ...headers });
}

/** Sends an already serialized JSON text (cached answers). */
export function sendJsonText(res: ServerResponse, status: number, text: string): void {
  sendRaw(res, status, text, { 'content-type': JSON_TYPE });
}

export function sendRaw(res: ServerResponse, status: number, body: string, headers: OutgoingHttpHeaders): void {
  res.writeHead(status, { ...headers, 'content-length': Buffer.byteLength(body) });
  res.end(body);
}

// The pages are self-contained: no scripts, no external assets, inline styles only.
const HTML_HEADERS: OutgoingHttpHeaders = {
  'content-type': 'text/html; charset=utf-8',
  'content-security-policy':
    "default-src 'none'; style-src 'unsafe-inline'; form-action 'none'; frame-ancestors 'none'",
  'x-content-type-options': 'nosniff',
  'cache-control': 'no-store',
};

export function sendHtml(res: ServerResponse, status: number, html: string): void {
  sendRaw(res, status, html, HTML_HEADERS);
}

/** The media type of the request body, lower case, without parameters (`''` when absent). */
export function mediaTypeOf(req: IncomingMessage): string {
  const header = req.headers['content-type'] ?? '';
  return (header.split(';', 1)[0] ?? '').trim().toLowerCase();
}

/** Reads the whole body as UTF-8, refusing more than MAX_BODY_BYTES with 413. */
export function readBody(req: IncomingMessage): Promise<string> {
  const declared = Number(req.headers['content-length'] ?? 0);
  if (declared > MAX_BODY_BYTES) return Promise.reject(apiError('bodyTooLarge'));
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer): void => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) {
        // Stop buffering; Node discards the rest once the answer is sent.
        req.off('data', onData);
        reject(apiError('bodyTooLarge'));
        return;
      }
      chunks.push(chunk);
    };
    req.on('data', onData);
    req.once('end', () => resolve(Buffer.concat(chunks, size).toString('utf8')));
    req.once('error', reject);
    req.once('close', () => {
      if (!req.complete) reject(new Error('request aborted'));
    });
  });
}

/** Reads a JSON object body (Content-Type application/json), or throws 415/413/400. */
export async function readJsonObject(req: IncomingMessage): Promise<Record<string, unknown>> {
  if (mediaTypeOf(req) !== 'application/json') {
    throw apiError('unsupportedMediaType', 'Send the body as JSON with Content-Type: application/json.');
  }
  const text = await readBody(req);
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw apiError('malformedBody', 'The body is not valid JSON.');
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw apiError('malformedBody', 'The body must be a JSON object.');
  }
  return parsed as Record<string, unknown>;
}

/** Reads an application/x-www-form-urlencoded body, or throws 415/413. */
export async function readForm(req: IncomingMessage): Promise<URLSearchParams> {
  if (mediaTypeOf(req) !== 'application/x-www-form-urlencoded') {
    throw apiError(
      'unsupportedMediaType',
      'Send the body as a form with Content-Type: application/x-www-form-urlencoded.',
    );
  }
  return new URLSearchParams(await readBody(req));
}

/** A required non-empty string member of a JSON body; throws 400 7101 (invalid parameters) otherwise. */
export function requiredString(body: Record<string, unknown>, name: string): string {
  const value = body[name];
  if (typeof value !== 'string' || value === '') {
    throw apiError('invalidParameters', `Request error: ${name} is required and must be a non-empty string.`);
  }
  return value;
}

/** A single-valued request header (repeated headers count as absent). */
export function headerValue(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name];
  return typeof value === 'string' ? value : undefined;
}
