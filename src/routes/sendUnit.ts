import { maskDestination, channels } from '../diagnostics.js';
import { isOtplessError, OtplessRequestError } from '../errors/index.js';
import { summarizeDevice } from '../flow/device.js';
import { withFlowParam } from '../flow/handoff.js';
import type { StoredFlow } from '../flow/handoff.js';
import { newFlowId } from '../flow/seal.js';
import type { LoginSetup } from '../login/compose.js';
import { addRequestIdsToPending, findPendingByFlow, rememberPending } from '../session/pending.js';
import type { SessionLike } from '../session/session.js';
import { takeSendBudget } from '../login/sendLimits.js';
import type { SendRefund } from '../login/sendLimits.js';
import type { Translator } from '../web/messages/index.js';
import type { HttpRequest } from '../web/request.js';
import { EXPIRY_DEFAULT_SECONDS, EXPIRY_MIN_SECONDS } from '../wire/endpoints.js';
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
  /** The flow the link belongs to (the binding nonce in its `redirect_uri`): never shown. */
  flowId: string;
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
  /** The request's words, for the send limits' refusal (English without it). */
  words?: Translator;
  /**
   * Another send of this flow (the waiting page's "send by SMS instead"): while the flow still
   * waits, with at least the service's shortest link lifetime left, the new link carries the
   * same flow id and so the same number, and lives no longer than the flow. Otherwise the send
   * starts a new flow, as any send does.
   */
  sameFlow?: string;
}

async function sendTaking(
  { settings, req, session, input, fields, t, words, sameFlow }: SendRequest,
  taken: TakenBySend,
): Promise<SentLink> {
  const { address, e164, destinations } = input;
  const channel = input.channel ?? settings.channel;
  // After the input is read, so invalid input costs nothing.
  if (settings.limiter) taken.refund = await takeSendBudget(settings.limiter, req, destinations, words);
  const now = Date.now();
  const going = sameFlow === undefined ? undefined : await flowStillWaiting(settings, session, sameFlow, now);
  const expiresAt = going?.expiresAt ?? now + (settings.expiry ?? EXPIRY_DEFAULT_SECONDS) * 1000;
  // Our own binding nonce rides in the link: the callback finds this send by it before it
  // verifies anything, whatever the service's request ids turn out to be.
  const flowId = going?.flowId ?? newFlowId();
  const handoff = settings.handoff;
  let started: StoredFlow | undefined;
  if (handoff && !going) {
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
      // Another send of a flow lives no longer than the flow (a whole second less, rounded down).
      ...(going
        ? { expiry: Math.floor((expiresAt - now) / 1000) }
        : settings.expiry !== undefined
          ? { expiry: settings.expiry }
          : {}),
    });
  } catch (err) {
    // The service answered and refused: nothing was sent. Anything else may hide a delivery.
    taken.messageMayBeOut = !(isOtplessError(err, 'API_ERROR') || isOtplessError(err, 'INVALID_ARGUMENT'));
    taken.refusal = err;
    throw toSendError(err, fields.emailField, fields.mobileField, t);
  }
  taken.messageMayBeOut = true;
  if (going) {
    // The flow learns its second send; the first stays good. A flow that moved on meanwhile
    // (approved by the first link, say) keeps what it has: the new link is then refused.
    if (handoff && going.stored) await addSendToFlow(handoff, flowId, going.stored, response.requestIds, now, t);
    if (session) addRequestIdsToPending(session, flowId, response.requestIds, now);
  } else if (handoff && started !== undefined) {
    // The flow learns its send: only a code of this send can approve or deny it.
    const ids = response.requestIds.map((r) => r.value);
    const bound = await handoff.recordSend(flowId, started, ids).catch((err: unknown) => asError(err));
    if (bound !== true) throw storeDown(t, bound === false ? new Error('the flow store lost a new flow') : bound);
  }
  if (session && !going) {
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
  return { sent, match: handoff?.numberOf(flowId), expiresAt, flowId };
}

/** A flow a new send can join: still waiting, in this session, with a link's shortest lifetime left. */
interface WaitingFlow {
  flowId: string;
  expiresAt: number;
  /** The flow as stored, in handoff mode. */
  stored: StoredFlow | undefined;
}

async function flowStillWaiting(
  settings: LoginSetup,
  session: SessionLike | undefined,
  flowId: string,
  now: number,
): Promise<WaitingFlow | undefined> {
  const own = findPendingByFlow(session, flowId, now)?.pending;
  // The service takes no link shorter than 30 s; one more second covers the time of the call.
  if (!own || own.expiresAt - now < (EXPIRY_MIN_SECONDS + 1) * 1000) return undefined;
  if (!settings.handoff) return { flowId, expiresAt: own.expiresAt, stored: undefined };
  const stored = await settings.handoff.read(flowId, now).catch(() => undefined);
  if (stored?.record.state !== 'pending' || stored.record.sendIds === undefined) return undefined;
  return { flowId, expiresAt: Math.min(own.expiresAt, stored.record.expiresAt), stored };
}

/** Adds a send to its flow, reading it again when another request changed it meanwhile. */
async function addSendToFlow(
  handoff: NonNullable<LoginSetup['handoff']>,
  flowId: string,
  stored: StoredFlow,
  requestIds: ReadonlyArray<{ value: string }>,
  now: number,
  t: Say,
): Promise<void> {
  const ids = requestIds.map((r) => r.value);
  let current: StoredFlow | undefined = stored;
  for (let tries = 0; tries < 3 && current?.record.state === 'pending'; tries += 1) {
    const added = await handoff.addSend(flowId, current, ids).catch((err: unknown) => asError(err));
    if (added === true) return;
    if (added instanceof Error) throw storeDown(t, added);
    current = await handoff.read(flowId, now);
  }
}

function storeDown(t: Say, err: unknown): OtplessRequestError {
  return new OtplessRequestError(503, 'STORE_UNAVAILABLE', t('send.service'), undefined, asError(err));
}
