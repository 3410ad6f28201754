import { isOtplessError, OtplessRequestError } from '../errors/index.js';
import type { SendLimiter, SendLimitedBy } from '../limits/index.js';
import { waitInWords } from '../limits/wait.js';
import { statusForServiceError } from './failures.js';
import { translatorFor } from '../web/messages/index.js';
import type { MessageKey, Translator } from '../web/messages/index.js';
import type { HttpRequest } from '../web/request.js';

/** A destination of one send: the value counted, and the form field it came from. */
export interface LimitedDestination {
  value: string;
  field: string;
}

/** What a refusal says was refused, in the person's language (src/web/messages/). */
const LIMITED: Record<SendLimitedBy, MessageKey> = {
  ip: 'limit.ip',
  email: 'limit.email',
  mobile: 'limit.mobile',
};
const STORE_DOWN = 'Sign-in links cannot be sent right now. Please try again in a few minutes.';

/**
 * Gives a send back to the destinations' budgets when the service refused it (the client IP's
 * count stays: it counts attempts). `reason` is the service's error: its own rate limit (429)
 * or unavailability (503) gives nothing back, since while it refuses, refunds would let every
 * try through. Without a reason the destinations get their send back.
 */
export type SendRefund = (reason?: unknown) => Promise<void>;

/**
 * Takes this send from the limiter's budgets and returns the refund for a send the service
 * refused; throws the route's error when a budget is spent (429 `RATE_LIMITED`) or the store
 * failed (503 `STORE_UNAVAILABLE`: closed, because an open send route is what the limits
 * exist to prevent, and every send costs money). A refusal says when to try again in the
 * words of `tr` (the request's language; English without it).
 */
export async function takeSendBudget(
  limiter: SendLimiter,
  req: HttpRequest,
  destinations: readonly LimitedDestination[],
  tr: Pick<Translator, 't' | 'locale'> = translatorFor(undefined),
): Promise<SendRefund> {
  let decision;
  try {
    decision = await limiter.take(
      clientIp(req),
      destinations.map((d) => d.value),
    );
  } catch (err) {
    throw new OtplessRequestError(503, 'STORE_UNAVAILABLE', STORE_DOWN, undefined, err as Error);
  }
  if (decision.allowed) {
    const { refund } = decision;
    return (reason?: unknown) => (serviceRefusedAll(reason) ? Promise.resolve() : refund());
  }
  const { by, retryAfterSeconds } = decision;
  const field = by === 'ip' ? undefined : destinations.find((d) => d.value.includes('@') === (by === 'email'))?.field;
  const message = `${tr.t(LIMITED[by])} ${tr.t('limit.tryAgain', { time: waitInWords(retryAfterSeconds, tr.locale) })}`;
  throw new OtplessRequestError(429, 'RATE_LIMITED', message, field, undefined, retryAfterSeconds);
}

/** The service's own rate limit or unavailability: no refund while it refuses every send. */
function serviceRefusedAll(reason: unknown): boolean {
  // Its 429 and rate-limit error codes (7020-7024), and its 503: the route's 503 for the service.
  return isOtplessError(reason, 'API_ERROR') && statusForServiceError(reason) === 503;
}

/**
 * The client's address: Express's `req.ip`, which honours the app's `trust proxy` setting
 * (set it behind a proxy, or every visitor shares the proxy's budget), else the socket's peer.
 */
export function clientIp(req: HttpRequest): string | undefined {
  const ip = (req as { ip?: unknown }).ip;
  if (typeof ip === 'string' && ip !== '') return ip;
  return req.socket?.remoteAddress;
}
