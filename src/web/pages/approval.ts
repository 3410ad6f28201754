import type { MessageKey, Translator } from '../messages/index.js';
import { APPROVAL_STATUS } from '../../errors/flowCodes.js';
import type { ApprovalOutcome } from '../../errors/flowCodes.js';
import type { ApprovalView, OutcomeView } from '../view.js';
import { viewBase } from '../view.js';
import { SELF, translate } from './context.js';
import type { PageContext } from './context.js';
import { escapeHtml } from './document.js';
import { formHtml } from './forms.js';

/** What the approval page says of the browser that asked for the link. */
export interface AskingBrowser {
  browser?: string;
  os?: string;
  /** Epoch ms when the link was asked for. */
  at: number;
}

/**
 * The page a link opened on another device shows (the phone, when the laptop asked). GET spends
 * nothing, so previews and scanners see only this page; the person approves by typing the number
 * the asking browser shows, and the form posts back to the same URL (the code stays in its query).
 * `missingNumber` re-shows it, 400, when the form came back without one.
 */
export function approvalView(
  ctx: PageContext,
  asking: AskingBrowser,
  now: number,
  missingNumber = false,
): ApprovalView {
  const tr = translate(ctx);
  const deny = tr.t('approval.deny');
  const approve = tr.t('approval.approve');
  const text = [
    tr.t('approval.asked', { device: deviceText(tr, asking), when: whenText(tr, asking.at, now) }),
    tr.t('approval.instructions', { deny }),
  ];
  const action = SELF;
  return {
    ...viewBase(tr, ctx.options?.theme, missingNumber ? 400 : 200, 'approval.title', text),
    page: 'approval',
    askedBy: {
      ...(asking.browser ? { browser: asking.browser } : {}),
      ...(asking.os ? { os: asking.os } : {}),
      at: new Date(asking.at),
    },
    ...(missingNumber ? { error: tr.t('approval.numberMissing', { approve }) } : {}),
    approve: {
      action,
      method: 'post',
      hidden: {},
      button: approve,
      field: 'match',
      label: tr.t('approval.numberLabel'),
    },
    deny: { action, method: 'post', hidden: { decision: 'deny' }, button: deny },
  };
}

function deviceText(tr: Translator, asking: AskingBrowser): string {
  if (asking.browser && asking.os) return tr.t('approval.device', { browser: asking.browser, os: asking.os });
  return asking.browser ?? asking.os ?? tr.t('approval.deviceUnknown');
}

function whenText(tr: Translator, at: number, now: number): string {
  const minutes = Math.max(0, Math.round((now - at) / 60_000));
  if (minutes === 0) return tr.t('approval.justNow');
  return minutes === 1 ? tr.t('approval.minuteAgo') : tr.t('approval.minutesAgo', { count: minutes });
}

/** The page the approving device sees once it has answered. */
export function outcomeView(ctx: Pick<PageContext, 'req' | 'options'>, outcome: ApprovalOutcome): OutcomeView {
  const tr = translate(ctx);
  const key = (part: 'title' | 'text'): MessageKey => `outcome.${outcome}.${part}`;
  return {
    ...viewBase(tr, ctx.options?.theme, APPROVAL_STATUS[outcome], key('title'), [tr.t(key('text'))]),
    page: 'outcome',
    outcome,
  };
}

/** The approval page's card: who asked, the number field (its error next to it), and "This wasn't me". */
export function drawApproval(view: ApprovalView): string {
  const paragraphs = view.text.map((line) => `<p>${escapeHtml(line)}</p>`).join('');
  const { approve, deny, error } = view;
  const errorHtml = error ? `<p id="match-error" class="error" role="alert">${escapeHtml(error)}</p>` : '';
  const input =
    `<label for="match">${escapeHtml(approve.label)}</label>` +
    `<input id="match" name="${approve.field}" inputmode="numeric" pattern="[0-9]{2}" maxlength="2" autocomplete="off" required autofocus` +
    `${error ? ' aria-invalid="true" aria-describedby="match-error"' : ''}>`;
  return paragraphs + errorHtml + formHtml(approve, `<p>${input}</p>`) + formHtml(deny, '', { className: 'secondary' });
}

/** The outcome page's card: its sentence. */
export function drawOutcome(view: OutcomeView): string {
  return view.text.map((line) => `<p>${escapeHtml(line)}</p>`).join('');
}
