import { maskDestination, channels } from '../diagnostics.js';
import { isOtplessError, OtplessRequestError } from '../errors/index.js';
import { summarizeDevice } from '../flow/device.js';
import { withFlowParam } from '../flow/handoff.js';
import type { StoredFlow } from '../flow/handoff.js';
import { newFlowId } from '../flow/seal.js';
import type { LoginSetup } from '../login/compose.js';
import { rememberPending } from '../session/pending.js';
import type { SessionLike } from '../session/session.js';
import { takeSendBudget } from '../login/sendLimits.js';
import type { SendRefund } from '../login/sendLimits.js';
import type { HttpRequest } from '../web/request.js';
import { EXPIRY_DEFAULT_SECONDS } from '../wire/endpoints.js';
import type { IdentityType, MagicLinkChannel } from '../wire/types.js';
import { asError, toSendError } from './sendInput.js';
import type { Say, SendFields, SendInput } from './sendInput.js';

/** One destination the link went to, as the visitor may see it: never a request id. */
export interface SentTo {
  type: IdentityType;
  channel: MagicLinkChannel | 'EMAIL';
  destinationUri?: string;
}

/** What a send that went out leaves for its answer. */
export interface SentLink {
  sent: SentTo[];
  /** The number to show, in handoff mode. */
  match: string | undefined;
  /** Epoch ms. */
  expiresAt: number;
}

/**
 * What a send has taken before the service is asked: its share of the send limits, and (in
 * handoff mode) a flow in the store. A send that fails gives it back here, in one place, so no
 * failure path has to remember what to undo.
 */
class TakenBySend {
  refund: SendRefund | undefined;
  flowId: string | undefined;
  /** Set once a message may have left: a timeout or a broken connection may hide a delivery. */
  messageMayBeOut = false;
  /** The service's refusal, when it refused: its own rate limit gives nothing back (sendLimits.ts). */
  refusal: unknown;

  constructor(private readonly settings: LoginSetup) {}

  async giveBack(): Promise<void> {
    if (this.flowId !== undefined) await this.settings.handoff?.discard(this.flowId).catch(() => undefined);
    // Only a send that certainly sent nothing is not counted: limits exist to cap what may have gone out.
    if (this.refund && !this.messageMayBeOut) await this.refund(this.refusal).catch(() => undefined);
  }
}

/**
 * Sends the link as one unit of work: takes the send limits, starts the flow, asks the service,
 * binds the flow to the send, and remembers the send in the session. Throws the route's error
 * (`OtplessRequestError`) after giving back what it took.
 */
export async function sendLink(send: SendRequest): Promise<SentLink> {
  const taken = new TakenBySend(send.settings);
  try {
    return await sendTaking(send, taken);
  } catch (err) {
    await taken.giveBack();
    throw err;
  }
}

/** What one send is about: the setup, the request and its session, what to send, and the words. */
export interface SendRequest {
  settings: LoginSetup;
  req: HttpRequest;
  session: SessionLike | undefined;
  input: SendInput;
  fields: SendFields;
  t: Say;
}

async function sendTaking(
  { settings, req, session, input, fields, t }: SendRequest,
  taken: TakenBySend,
): Promise<SentLink> {
  const { address, e164, destinations } = input;
  const channel = input.channel ?? settings.channel;
  // After the input is read, so invalid input costs nothing.
  if (settings.limiter) taken.refund = await takeSendBudget(settings.limiter, req, destinations);
  const now = Date.now();
  const expiresAt = now + (settings.expiry ?? EXPIRY_DEFAULT_SECONDS) * 1000;
  // Our own binding nonce rides in the link: the callback finds this send by it before it
  // verifies anything, whatever the service's request ids turn out to be.
  const flowId = newFlowId();
  const handoff = settings.handoff;
  let started: StoredFlow | undefined;
  if (handoff) {
    const askedBy = { ...summarizeDevice(req.headers['user-agent']), at: now };
    // Stored before the link leaves: a phone can open it within a second.
    started = await handoff.start(flowId, { expiresAt, askedBy }, now).catch((err: unknown) => {
      throw storeDown(t, err);
    });
    taken.flowId = flowId;
  }
  let response;
  try {
    response = await settings.client.sendMagicLink({
      ...(address !== undefined ? { email: address, allowInternationalEmail: settings.allowInternationalEmail } : {}),
      ...(e164 !== undefined ? { mobileNumber: e164 } : {}),
      // The service's default is WhatsApp; sent only when chosen, and only with a number.
      ...(e164 !== undefined && channel !== undefined ? { channel } : {}),
      redirectUri: withFlowParam(settings.callbackUrl, flowId),
      ...(settings.expiry !== undefined ? { expiry: settings.expiry } : {}),
    });
  } catch (err) {
    // The service answered and refused: nothing was sent. Anything else may hide a delivery.
    taken.messageMayBeOut = !(isOtplessError(err, 'API_ERROR') || isOtplessError(err, 'INVALID_ARGUMENT'));
    taken.refusal = err;
    throw toSendError(err, fields.emailField, fields.mobileField, t);
  }
  taken.messageMayBeOut = true;
  if (handoff && started !== undefined) {
    // The flow learns its send: only a code of this send can approve or deny it.
    const ids = response.requestIds.map((r) => r.value);
    const bound = await handoff.recordSend(flowId, started, ids).catch((err: unknown) => asError(err));
    if (bound !== true) throw storeDown(t, bound === false ? new Error('the flow store lost a new flow') : bound);
  }
  if (session) {
    const sentTo = destinations.map((d) => d.value);
    rememberPending(
      session,
      { flowId, requestIds: response.requestIds, destinations: sentTo, expiresAt },
      now,
      settings.secrets.recordKey,
    );
  }
  // Only what the visitor needs: never a request id or anything that could finish the login.
  const sent = response.requestIds.map((r): SentTo => {
    const via = r.type === 'MOBILE' ? (channel ?? 'WHATSAPP') : 'EMAIL';
    return r.destinationUri
      ? { type: r.type, channel: via, destinationUri: r.destinationUri }
      : { type: r.type, channel: via };
  });
  if (channels.linkSent.hasSubscribers) {
    channels.linkSent.publish({
      types: response.requestIds.map((r) => r.type),
      ...(e164 !== undefined ? { channel: channel ?? 'WHATSAPP' } : {}),
      to: destinations.map((d) => maskDestination(d.value)),
      handoff: handoff !== undefined,
    });
  }
  return { sent, match: handoff?.numberOf(flowId), expiresAt };
}

function storeDown(t: Say, err: unknown): OtplessRequestError {
  return new OtplessRequestError(503, 'STORE_UNAVAILABLE', t('send.service'), undefined, asError(err));
}
