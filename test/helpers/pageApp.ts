import express from 'express';
import { errorView, showPage, signInView, waitingView } from '../../src/web/pages/index.js';
import type { ErrorInput, PageContext, SignInInput, WaitingInput } from '../../src/web/pages/index.js';
import type { PageOptions } from '../../src/index.js';

/** What each page of the app is drawn from, per request (the test changes them between requests). */
export interface PageInputs {
  signIn: SignInInput;
  waiting: WaitingInput;
  error: ErrorInput;
  /** What GET /status answers: the flow's status as the strategy's `status()` gives it. */
  status: { status: string; match?: string };
  options?: PageOptions;
}

/**
 * A tiny real Express app that answers the package's sign-in, waiting and error pages from their
 * builders, as the mount will: `/sign-in`, `/waiting`, `/error`, the JSON `/status` the waiting
 * page polls and a `/done` the approved page goes on to. `inputs` is read on every request.
 */
export function pageApp(inputs: PageInputs): express.Express {
  const app = express();
  const ctx = (req: express.Request, res: express.Response): PageContext => ({ req, res, options: inputs.options });
  app.get('/sign-in', (req, res) => void showPage(ctx(req, res), signInView(ctx(req, res), inputs.signIn)));
  app.get('/waiting', (req, res) => {
    // As the mount does: a reload of an approved flow goes on to finish the login.
    if (inputs.status.status === 'approved') return res.redirect(303, inputs.waiting.continueUrl);
    void showPage(ctx(req, res), waitingView(ctx(req, res), inputs.waiting));
  });
  app.get('/error', (req, res) => void showPage(ctx(req, res), errorView(ctx(req, res), inputs.error)));
  app.get('/status', (_req, res) => void res.set('cache-control', 'no-store').json(inputs.status));
  app.get('/done', (_req, res) => void res.send('<!doctype html><title>done</title><h1>Signed in</h1>'));
  return app;
}

/**
 * Inputs as the mount would give them for a pending mobile sign-in: the number 42, a link that
 * expires 250 s after `now` and a resend allowed in 25 s.
 */
export function defaultPageInputs(now: number): PageInputs {
  return {
    signIn: { action: '/auth/magic-link', hidden: { returnTo: '/account' } },
    waiting: {
      status: 'pending',
      match: '42',
      sentTo: ['j***@example.com'],
      expiresAt: new Date(now + 250_000),
      now,
      statusUrl: '/status',
      continueUrl: '/auth/callback',
      resend: { action: '/auth/magic-link', hidden: { resend: '1' }, resendInSeconds: 25 },
      startAgainUrl: '/sign-in',
    },
    error: { code: 'CODE_REJECTED', status: 401, startAgainUrl: '/sign-in' },
    status: { status: 'pending' },
  };
}
