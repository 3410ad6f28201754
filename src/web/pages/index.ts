// The pages the package shows a person: each a view builder (a typed, plain-text view model an
// app's `pages.render` may draw) and the package's own drawing, answered by `showPage`.
export { escapeHtml, sendPage, scriptSource } from './document.js';
export type { Page } from './document.js';
export { translate, SELF } from './context.js';
export type { PageContext } from './context.js';
export { confirmView } from './confirm.js';
export { approvalView, outcomeView } from './approval.js';
export type { AskingBrowser } from './approval.js';
export { signInView } from './signIn.js';
export type { SignInInput } from './signIn.js';
export { waitingView, clockText } from './waiting.js';
export type { WaitingInput } from './waiting.js';
export { WAITING_SCRIPT } from './waitingScript.js';
export { errorView } from './error.js';
export type { ErrorInput } from './error.js';
export { showPage } from './show.js';
export type { ApprovalOutcome } from '../../errors/flowCodes.js';
