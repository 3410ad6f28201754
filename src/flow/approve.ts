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
}

/**
 * The other device's side of a handoff (the phone, when the laptop asked). GET shows the
 * approval page and spends nothing; a same-origin POST with the number the asking browser shows
 * verifies the code and approves the flow; a wrong number or "This wasn't me" denies it for good.
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
    if (!flow || flow.record.s !== 'pending') return ctx.refuse('FLOW_EXPIRED');
    return sendApprovalPage(res, flow.record.a, now);
  }
  if (!isSameOriginPost(req, ctx.callbackUrl)) return ctx.refuse('CROSS_SITE');
  const form = await readSmallForm(req);
  if (!flow || flow.record.s !== 'pending') return sendApprovalOutcome(res, 'gone');
  const deny = async (reason: FlowDenial): Promise<boolean> => {
    const denied = await handoff.deny(flowId, flow, reason);
    if (denied && channels.handoffDenied.hasSubscribers) {
      channels.handoffDenied.publish({ ageMs: Date.now() - flow.record.a.at, reason });
    }
    return denied;
  };
  if (form.decision === 'deny') return sendApprovalOutcome(res, (await deny('USER_DENIED')) ? 'denied' : 'gone');
  if (typeof form.match !== 'string' || form.match.trim() !== flow.record.m) {
    await deny('WRONG_NUMBER');
    return sendApprovalOutcome(res, 'wrongNumber');
  }
  const verification = await ctx.verifyCode(code);
  if (!verification) {
    await deny('CODE_REJECTED');
    return sendApprovalOutcome(res, 'rejected');
  }
  const approvedBy = summarizeDevice(req.headers['user-agent']);
  const approved = await handoff.approve(flowId, flow, { verification, approvedAt: Date.now(), approvedBy });
  if (approved && channels.handoffApproved.hasSubscribers) {
    channels.handoffApproved.publish({ ageMs: Date.now() - flow.record.a.at });
  }
  sendApprovalOutcome(res, approved ? 'approved' : 'gone');
}
