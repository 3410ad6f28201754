import type { CodeVerificationResult } from '../wire/types.js';
import { channels } from '../diagnostics.js';
import type { HttpRequest } from '../web/request.js';
import { readSmallForm } from '../web/form.js';
import { isSameOriginPost } from '../web/origin.js';
import { sendApprovalOutcome, sendApprovalPage } from '../web/pages.js';
import type { ServerResponse } from 'node:http';
import { summarizeDevice } from './device.js';
import type { FlowDenial, Handoff } from './handoff.js';

/** What the approval route needs from the strategy that owns it. */
export interface ApprovalContext {
  handoff: Handoff;
  callbackUrl: string;
  /** Verifies the link's code: the verification, or `undefined` when the service refused it. */
  verifyCode(code: string): Promise<CodeVerificationResult | undefined>;
  /** Ends the request with a Passport refusal of this code. */
  refuse(code: 'FLOW_EXPIRED' | 'CROSS_SITE'): void;
  /** Marks the approval's token used before it is stored: even unsealed, it opens no login. */
  spendToken(token: string): Promise<unknown>;
  /**
   * The app said the service's verify-code request ids differ from the send's (option
   * `requestIdsDiffer`): the approval is then bound by the flow id and its number alone.
   */
  requestIdsDiffer: boolean;
}

/**
 * The other device's side of a handoff (the phone, when the laptop asked). GET shows the
 * approval page and spends nothing. A same-origin POST first proves itself: its code must be one
 * the service accepts and, by the verification's request id, one of this flow's own send. Only
 * then does the number the asking browser shows approve the flow, and a wrong number or "This
 * wasn't me" deny it for good. Whoever only knows a flow id can neither approve nor deny it.
 * Answers with a page, never a login on this device.
 */
export async function approveOnThisDevice(
  req: HttpRequest,
  res: ServerResponse,
  code: string,
  flowId: string,
  ctx: ApprovalContext,
): Promise<void> {
  const { handoff } = ctx;
  const now = Date.now();
  const flow = await handoff.read(flowId, now);
  // A flow that is over (used, expired, decided) is a plain refusal: the app's failure handling shows it.
  if (req.method !== 'POST') {
    if (!flow || flow.record.state !== 'pending') return ctx.refuse('FLOW_EXPIRED');
    return sendApprovalPage(res, flow.record.askedBy, now);
  }
  if (!isSameOriginPost(req, ctx.callbackUrl)) return ctx.refuse('CROSS_SITE');
  const form = await readSmallForm(req);
  if (!flow || flow.record.state !== 'pending') return sendApprovalOutcome(res, 'gone');
  // Until the service has answered the send, nothing tells which codes belong to this flow.
  if (!ctx.requestIdsDiffer && flow.record.sendIds === undefined) return sendApprovalOutcome(res, 'gone');
  const deny = async (reason: FlowDenial): Promise<boolean> => {
    const denied = await handoff.deny(flowId, flow, reason);
    if (denied && channels.handoffDenied.hasSubscribers) {
      channels.handoffDenied.publish({ ageMs: Date.now() - flow.record.askedBy.at, reason });
    }
    return denied;
  };
  // The proof comes first, for an approval and a denial alike; a code that proves nothing leaves the flow as it is.
  const verification = await ctx.verifyCode(code);
  if (!verification) return sendApprovalOutcome(res, 'rejected');
  if (!ctx.requestIdsDiffer && !handoff.isOwnSend(flow, verification.requestId)) {
    return sendApprovalOutcome(res, 'rejected');
  }
  if (form.decision === 'deny') return sendApprovalOutcome(res, (await deny('USER_DENIED')) ? 'denied' : 'gone');
  if (typeof form.match !== 'string' || form.match.trim() !== handoff.numberOf(flowId)) {
    await deny('WRONG_NUMBER');
    return sendApprovalOutcome(res, 'wrongNumber');
  }
  await ctx.spendToken(verification.userDetails.token);
  const approvedBy = summarizeDevice(req.headers['user-agent']);
  const approved = await handoff.approve(flowId, flow, { verification, approvedAt: Date.now(), approvedBy });
  if (approved && channels.handoffApproved.hasSubscribers) {
    channels.handoffApproved.publish({ ageMs: Date.now() - flow.record.askedBy.at });
  }
  sendApprovalOutcome(res, approved ? 'approved' : 'gone');
}
