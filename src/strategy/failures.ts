/**
 * Every way a callback can refuse a login, with the status and a message a person
 * understands. They reach Passport as `fail({ code, message }, status)`, so
 * `failureMessage`/`failureFlash` and custom callbacks see them.
 */
export const CALLBACK_FAILURES = {
  MISSING_CODE: {
    status: 400,
    message: 'This sign-in link is incomplete. Open the link from your message again, or ask for a new one.',
  },
  INVALID_CODE: { status: 400, message: 'This sign-in link is not valid. Ask for a new one.' },
  CODE_REJECTED: {
    status: 401,
    message: 'This sign-in link is invalid, has expired or was already used. Ask for a new one.',
  },
  TOKEN_REJECTED: { status: 401, message: 'Your sign-in could not be confirmed. Please sign in again.' },
  // After a login the session is new, so a link used here before looks like one from another
  // browser: the message covers both.
  WRONG_BROWSER: {
    status: 403,
    message:
      'This sign-in link cannot be used here: it was already used, or it was opened in another browser than the one where you asked for it. Ask for a new link in this browser.',
  },
  CROSS_SITE: { status: 403, message: 'This sign-in request did not come from this site.' },
  USER_REFUSED: { status: 401, message: 'Sign-in was refused.' },
} as const;

export type CallbackFailureCode = keyof typeof CALLBACK_FAILURES;

export interface CallbackFailure {
  code: CallbackFailureCode;
  message: string;
}

/** The challenge object and status to hand to Passport's `fail`. */
export function failure(code: CallbackFailureCode): { challenge: CallbackFailure; status: number } {
  const { status, message } = CALLBACK_FAILURES[code];
  return { challenge: { code, message }, status };
}
