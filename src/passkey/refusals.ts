import { OtplessRequestError } from '../errors/index.js';
import type { RequestErrorCode } from '../errors/codes.js';
import { translatorFor } from '../web/messages/index.js';
import type { LocaleOptions } from '../web/messages/index.js';
import type { HttpRequest } from '../web/request.js';

/** The codes a passkey ceremony refuses with. */
export type PasskeyRefusalCode = Extract<RequestErrorCode, `PASSKEY_${string}`>;

/** The status of each refusal: 403 for a registration nobody's fresh login allows, 401 for a sign-in refused. */
export const PASSKEY_STATUS: Record<PasskeyRefusalCode, number> = {
  PASSKEY_NOT_ALLOWED: 403,
  PASSKEY_CHALLENGE_EXPIRED: 400,
  PASSKEY_UNKNOWN: 401,
  PASSKEY_WRONG_ORIGIN: 400,
  PASSKEY_COUNTER_BACKWARDS: 401,
  PASSKEY_INVALID: 400,
};

/**
 * A refusal of a passkey ceremony, told in the person's language (the message says they can
 * still ask for a link). Never holds credential material.
 */
export function passkeyRefusal(
  code: PasskeyRefusalCode,
  req: HttpRequest,
  locale?: LocaleOptions,
): OtplessRequestError {
  const { t } = translatorFor(req, locale);
  return new OtplessRequestError(PASSKEY_STATUS[code], code, t(`passkey.${code}`));
}
