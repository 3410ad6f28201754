import type { BotCheck } from '../botCheck/botCheck.js';
import { OtplessRequestError } from '../errors/index.js';
import { clientIp } from '../login/sendLimits.js';
import type { HttpRequest } from '../web/request.js';
import type { Say } from './sendInput.js';

/** Tokens of the three providers are a few hundred to a few thousand characters. */
const MAX_TOKEN_LENGTH = 4096;

/**
 * The strategy's bot check, before any limit is spent or any message sent: a missing or failed
 * token is 403 `BOT_CHECK_FAILED`; a provider that cannot tell (down, slow, odd answer) is 503
 * `BOT_CHECK_UNAVAILABLE`. Closed either way: no send goes out unchecked.
 */
export async function passBotCheck(check: BotCheck | undefined, req: HttpRequest, t: Say): Promise<void> {
  if (!check) return;
  const body = req.body as Record<string, unknown> | undefined;
  const token = body?.[check.field];
  if (typeof token !== 'string' || token === '' || token.length > MAX_TOKEN_LENGTH) {
    throw new OtplessRequestError(403, 'BOT_CHECK_FAILED', t('send.botCheck'));
  }
  let passed: boolean;
  try {
    passed = await check.verify(token, clientIp(req));
  } catch (err) {
    throw new OtplessRequestError(
      503,
      'BOT_CHECK_UNAVAILABLE',
      t('send.botCheckUnavailable'),
      undefined,
      err instanceof Error ? err : undefined,
    );
  }
  if (passed !== true) throw new OtplessRequestError(403, 'BOT_CHECK_FAILED', t('send.botCheck'));
}
