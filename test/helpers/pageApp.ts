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
  app.get('/waiting', (req, res) => void showPage(ctx(req, res), waitingView(ctx(req, res), inputs.waiting)));
  app.get('/error', (req, res) => void showPage(ctx(req, res), errorView(ctx(req, res), inputs.error)));
  app.get('/status', (_req, res) => void res.set('cache-control', 'no-store').json(inputs.status));
  app.get('/done', (_req, res) => void res.send('<!doctype html><title>done</title><h1>Signed in</h1>'));
  return app;
}
