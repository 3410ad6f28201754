import type { ServiceErrorBody } from '../wire/types.js';
import { redact } from './redact.js';

export interface ServiceErrorFields {
  errorCode?: string;
  description?: string;
  serviceMessage?: string;
}

/**
 * Reads what it can from a non-2xx body: JSON or not, any field missing or of any type
 * (service-facts.md: `{message, errorCode, description}`, the legacy userInfo sends `message`
 * only). Values are redacted, since a service may echo what it was sent.
 */
export function parseServiceError(text: string, secrets: readonly string[]): ServiceErrorFields {
  let body: ServiceErrorBody;
  try {
    const parsed: unknown = JSON.parse(text);
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return {};
    body = parsed as ServiceErrorBody;
  } catch {
    return {};
  }
  const fields: ServiceErrorFields = {};
  const errorCode =
    typeof body.errorCode === 'number' ? textOf(String(body.errorCode), secrets) : textOf(body.errorCode, secrets);
  const description = textOf(body.description, secrets);
  const serviceMessage = textOf(body.message, secrets);
  if (errorCode !== undefined) fields.errorCode = errorCode;
  if (description !== undefined) fields.description = description;
  if (serviceMessage !== undefined) fields.serviceMessage = serviceMessage;
  return fields;
}

/** A non-empty string as redacted text; anything else: absent. */
function textOf(value: unknown, secrets: readonly string[]): string | undefined {
  if (typeof value !== 'string' || value === '') return undefined;
  return redact(value, secrets);
}
