import { APPROVAL_REFUSAL_CODES } from '../errors/flowCodes.js';
import type { ApprovalOutcome, FlowDenial } from '../errors/flowCodes.js';
import type { CodeVerificationResult } from '../wire/types.js';
import { channels } from '../diagnostics.js';
import type { HttpRequest } from '../web/request.js';
import { readSmallForm } from '../web/form.js';
import { mayBeCrossSite } from '../web/origin.js';
import { approvalView, outcomeView, showPage, translate } from '../web/pages/index.js';
import type { AskingBrowser, PageContext } from '../web/pages/index.js';
import { sendJson } from '../web/request.js';
import type { PageOptions } from '../web/view.js';
import type { ServerResponse } from 'node:http';
import { summarizeDevice } from './device.js';
import { isPending } from './handoff.js';
import type { Handoff } from './handoff.js';

/** What the approval route needs from the strategy that owns it. */
export interface ApprovalContext {
  handoff: Handoff;
  callbackUrl: string;
  /** Verifies the link's code: the verification, or `undefined` when the service refused it. */
  verifyCode(code: string): Promise<CodeVerificationResult | undefined>;
  /** Ends the request with a Passport refusal of this code. */
  refuse(code: 'FLOW_EXPIRED' | 'CROSS_SITE'): void;
  /** The app's words, look and render function for the pages. */
  pages?: PageOptions | undefined;
  /** Marks the approval's token used before it is stored: even unsealed, it opens no login. */
  spendToken(token: string): Promise<unknown>;
  /**
   * The app said the service's verify-code request ids differ from the send's (option
   * `requestIdsDiffer`): the approval is then bound by the flow id and its number alone.
   */
  requestIdsDiffer: boolean;
}

/** The number the asking browser shows: two digits, nothing else counts as an answer. */
const NUMBER = /^\d{2}$/;

/**
 * The other device's side of a handoff (the phone, when the laptop asked). GET shows the
 * approval page and spends nothing. A same-origin POST first proves itself: its code must be one
 * the service accepts and, by the verification's request id, one of this flow's own send. Only
 * then does the number the asking browser shows approve the flow, and a wrong number or "This
 * wasn't me" deny it for good. Whoever only knows a flow id can neither approve nor deny it.
 * A POST without a two-digit number is no answer: the flow keeps waiting and the page asks for
 * the number again. Answers with a page, or JSON to a JSON request (a single-page app's phone
 * side); never a login on this device.
 */
export async function approveOnThisDevice(
  req: HttpRequest,
  res: ServerResponse,
  code: string,
  flowId: string,
  ctx: ApprovalContext,
): Promise<void> {
  const { handoff } = ctx;
  const page = { req, res, options: ctx.pages };
  const json = asksForJson(req);
  const now = Date.now();
  const flow = await handoff.read(flowId, now);
  // A flow that is over (used, expired, decided) is a plain refusal: the app's failure handling shows it.
  if (req.method !== 'POST') {
    if (!isPending(flow)) return ctx.refuse('FLOW_EXPIRED');
    if (json) return sendJson(res, 200, awaiting(flow.record.askedBy));
    return showPage(page, approvalView(page, flow.record.askedBy, now));
  }
  // A page of another site must not answer for the person; a JSON body needs a CORS preflight.
  if (mayBeCrossSite(req, ctx.callbackUrl)) return ctx.refuse('CROSS_SITE');
  const form = await readSmallForm(req);
  const outcome = async (result: ApprovalOutcome): Promise<void> =>
    json ? sendOutcomeJson(page, result) : showPage(page, outcomeView(page, result));
  if (!isPending(flow)) return outcome('gone');
  // Until the service has answered the send, nothing tells which codes belong to this flow.
  if (!ctx.requestIdsDiffer && flow.record.sendIds === undefined) return outcome('gone');
  const deny = async (reason: FlowDenial): Promise<boolean> => {
    const denied = await handoff.deny(flowId, flow, reason);
    if (denied && channels.handoffDenied.hasSubscribers) {
      channels.handoffDenied.publish({ ageMs: Date.now() - flow.record.askedBy.at, code: reason });
    }
    return denied;
  };
  const typed =
    typeof form.match === 'string' ? form.match.trim() : typeof form.match === 'number' ? String(form.match) : '';
  // No number yet (a single-page app posting the link's code first, a form sent empty): not an answer.
  if (form.decision !== 'deny' && !NUMBER.test(typed)) {
    if (json) return sendJson(res, 202, awaiting(flow.record.askedBy, typed !== '' ? numberMissing(page) : undefined));
    return showPage(page, approvalView(page, flow.record.askedBy, now, true));
  }
  // The proof comes first, for an approval and a denial alike; a code that proves nothing leaves the flow as it is.
  const verification = await ctx.verifyCode(code);
  if (!verification) return outcome('rejected');
  if (!ctx.requestIdsDiffer && !handoff.isOwnSend(flow, verification.requestId)) return outcome('rejected');
  if (form.decision === 'deny') return outcome((await deny('USER_DENIED')) ? 'denied' : 'gone');
  if (typed !== handoff.numberOf(flowId)) {
    await deny('WRONG_NUMBER');
    return outcome('wrongNumber');
  }
  await ctx.spendToken(verification.userDetails.token);
  const approvedBy = summarizeDevice(req.headers['user-agent']);
  const approved = await handoff.approve(flowId, flow, { verification, approvedAt: Date.now(), approvedBy });
  if (approved && channels.handoffApproved.hasSubscribers) {
    channels.handoffApproved.publish({ ageMs: Date.now() - flow.record.askedBy.at });
  }
  await outcome(approved ? 'approved' : 'gone');
}

/**
 * A JSON request: it names `application/json` in `Accept`, or it sent JSON. A request that
 * names neither (a link opened by a mail app, `Accept: *\/*`) gets the page a person can read.
 */
function asksForJson(req: HttpRequest): boolean {
  const json = /\bapplication\/json\b/i;
  // An absent header reads "undefined", which names no JSON.
  return json.test(String(req.headers.accept)) || json.test(String(req.headers['content-type']));
}

/**
 * The JSON of a flow still waiting for the person's answer: who asked, and the field to send.
 * `invalid`: the message, when what was sent as the number is not two digits.
 */
function awaiting(asking: AskingBrowser, invalid?: string): Record<string, unknown> {
  const askedBy = {
    ...(asking.browser ? { browser: asking.browser } : {}),
    ...(asking.os ? { os: asking.os } : {}),
    at: new Date(asking.at).toISOString(),
  };
  const body: Record<string, unknown> = { approval: 'required', askedBy, field: 'match' };
  if (invalid) body.error = { code: 'INVALID_NUMBER', field: 'match', message: invalid };
  return body;
}

function numberMissing(page: Pick<PageContext, 'req' | 'options'>): string {
  const { t } = translate(page);
  return t('approval.numberMissing', { approve: t('approval.approve') });
}

function sendOutcomeJson(page: PageContext, outcome: ApprovalOutcome): void {
  const view = outcomeView(page, outcome);
  const message = `${view.title}. ${view.text.join(' ')}`;
  const code = APPROVAL_REFUSAL_CODES[outcome];
  sendJson(
    page.res,
    view.status,
    code ? { approval: outcome, error: { code, message } } : { approval: outcome, message },
  );
}
