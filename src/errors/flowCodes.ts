/** Why a cross-device flow was denied. */
export type FlowDenial = 'WRONG_NUMBER' | 'USER_DENIED';

/** How an approval on the other device ended. */
export type ApprovalOutcome = 'approved' | 'wrongNumber' | 'denied' | 'rejected' | 'gone';

/** The status of each outcome: a wrong number and a refused code are the caller's 4xx. */
export const APPROVAL_STATUS: Readonly<Record<ApprovalOutcome, number>> = {
  approved: 200,
  wrongNumber: 403,
  denied: 200,
  rejected: 401,
  gone: 410,
};

/** The stable codes of the outcomes that are refusals (a JSON answer's `error.code`). */
export const APPROVAL_REFUSAL_CODES: Readonly<Partial<Record<ApprovalOutcome, string>>> = {
  wrongNumber: 'WRONG_NUMBER',
  rejected: 'CODE_REJECTED',
  gone: 'FLOW_EXPIRED',
};
