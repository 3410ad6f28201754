/** Stable codes of what a guard answers; JSON clients get `{ error: { code } }`. */
export type GuardRefusalCode =
  | 'UNAUTHENTICATED'
  | 'RISK_CHALLENGE'
  | 'RISK_BLOCKED'
  | 'IDENTITY_REQUIRED'
  // The service session behind a session-token login has ended (`requireServiceSession()`).
  | 'SESSION_ENDED';

/** The status of each refusal; its words are in the message catalogue (`guard.<code>.title/text`). */
export const GUARD_REFUSAL_STATUS: Readonly<Record<GuardRefusalCode, number>> = {
  UNAUTHENTICATED: 401,
  RISK_CHALLENGE: 403,
  RISK_BLOCKED: 403,
  IDENTITY_REQUIRED: 403,
  SESSION_ENDED: 401,
};
