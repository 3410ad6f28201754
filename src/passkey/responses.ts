import type { PasskeyRefusalCode } from './refusals.js';

const B64URL = /^[A-Za-z0-9_-]{1,4096}$/;

/**
 * The browser's answer as the library expects it, or `undefined`: an object with a base64url
 * `id` and `rawId`, type 'public-key', and `response` holding `clientDataJSON` and `field`.
 * Checked here so a malformed body is a clear refusal, not a library's TypeError.
 */
export function responseShape(body: unknown, field: 'attestationObject' | 'signature'): object | undefined {
  if (typeof body !== 'object' || body === null) return undefined;
  const b = body as Record<string, unknown>;
  const response = b.response as Record<string, unknown> | undefined;
  if (typeof b.id !== 'string' || !B64URL.test(b.id) || b.rawId !== b.id || b.type !== 'public-key') return undefined;
  if (typeof response !== 'object' || response === null) return undefined;
  if (typeof response.clientDataJSON !== 'string' || typeof response[field] !== 'string') return undefined;
  return {
    id: b.id,
    rawId: b.rawId,
    type: 'public-key',
    response,
    clientExtensionResults:
      typeof b.clientExtensionResults === 'object' && b.clientExtensionResults !== null ? b.clientExtensionResults : {},
    ...(typeof b.authenticatorAttachment === 'string' ? { authenticatorAttachment: b.authenticatorAttachment } : {}),
  };
}

/** The code of a response the library refused: a wrong origin says so, anything else is invalid. */
export function refusalOfLibrary(err: unknown): PasskeyRefusalCode {
  const message = err instanceof Error ? err.message : '';
  if (/\borigin\b/i.test(message) || /\bRP ID\b/i.test(message)) return 'PASSKEY_WRONG_ORIGIN';
  return 'PASSKEY_INVALID';
}
