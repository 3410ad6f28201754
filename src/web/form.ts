import type { HttpRequest } from './request.js';
import { ownFields } from './request.js';

/** Small forms only: the approval form holds two digits and a word. */
const MAX_FORM_BYTES = 2048;

/**
 * The fields of a small url-encoded form or JSON object POST: from `req.body` when a body
 * parser ran, or read from the request itself when none did (the callback route often has no
 * parser). Anything else (a larger body, a stream already read, JSON that is not an object)
 * gives an empty object.
 */
export async function readSmallForm(req: HttpRequest): Promise<Record<string, unknown>> {
  // Own fields only: a polluted Object.prototype.match is no answer.
  if (req.body && typeof req.body === 'object') return ownFields(req.body);
  const type = String(req.headers['content-type'] ?? '');
  const isJson = /^application\/json\b/i.test(type);
  // A Fastify request is no stream (Fastify read the body, and parsed it when a parser was registered).
  if (
    (!isJson && !/^application\/x-www-form-urlencoded\b/i.test(type)) ||
    req.readableEnded ||
    !(Symbol.asyncIterator in req)
  )
    return {};
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_FORM_BYTES) return {};
    chunks.push(chunk);
  }
  const text = Buffer.concat(chunks).toString('utf8');
  if (!isJson) return ownFields(Object.fromEntries(new URLSearchParams(text)));
  try {
    const value: unknown = JSON.parse(text);
    return value && typeof value === 'object' && !Array.isArray(value) ? ownFields(value) : {};
  } catch {
    return {};
  }
}
