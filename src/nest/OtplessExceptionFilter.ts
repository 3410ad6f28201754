import { Catch, Logger } from '@nestjs/common';
import type { ArgumentsHost, ExceptionFilter } from '@nestjs/common';
import type { ServerResponse } from 'node:http';
import { isOtplessError, OtplessError, OtplessRequestError, OtplessSetupError } from '../errors/index.js';
import { serviceFailure, isClientError } from '../login/failures.js';
import { answered, nodeArgs, setHeader } from '../web/host.js';
import type { ReplyLike } from '../web/host.js';
import { errorView, showPage } from '../web/pages.js';
import type { PageContext } from '../web/pages.js';
import type { HttpRequest } from '../web/request.js';
import { sendJson, wantsJson } from '../web/request.js';
import type { OtplessMount } from './OtplessMount.js';

/** The answer to an error: its status, its stable code, and words a visitor may read. */
interface Answer {
  status: number;
  code: string;
  /** Shown to the visitor; `undefined` lets the error page say it from its catalogue. */
  message: string | undefined;
  field?: string | undefined;
  retryAfterSeconds?: number | undefined;
}

const SETUP_MESSAGE = 'The server is not set up right.';

/**
 * Nest's exception filter for the package's errors, which Nest would answer with a bare 500:
 * a service failure gets its 502/503/504, bad input its 400, a send limit its 429 (with
 * `Retry-After`), a setup mistake 500 with its code (the message, naming what to add, goes
 * to the log). A JSON client gets `{ error: { code, message } }`, a browser the package's
 * error page (the mount's theme and locales, a link back to its sign-in page). Other errors
 * are left to the app's and Nest's own filters.
 *
 * `OtplessModule` registers it for the whole app; without the module,
 * `app.useGlobalFilters(new OtplessExceptionFilter())`.
 *
 * @example
 * app.useGlobalFilters(new OtplessExceptionFilter());
 */
export class OtplessExceptionFilter implements ExceptionFilter<OtplessError> {
  private readonly logger = new Logger('passport-otpless');

  /** @param mount the module's mount, for the error page's look and its way back to sign-in */
  constructor(private readonly mount?: OtplessMount) {}

  catch(exception: OtplessError, host: ArgumentsHost): void {
    if (host.getType() !== 'http') throw exception;
    const http = host.switchToHttp();
    const [req, res] = nodeArgs<HttpRequest>(
      http.getRequest<HttpRequest>(),
      http.getResponse<ServerResponse | ReplyLike>(),
    );
    const answer = this.answerFor(exception);
    if (answered(res)) return;
    if (answer.retryAfterSeconds !== undefined) setHeader(res, 'Retry-After', answer.retryAfterSeconds);
    if (wantsJson(req)) {
      const { status, code, field, retryAfterSeconds } = answer;
      const message = answer.message ?? SETUP_MESSAGE;
      return sendJson(res, status, {
        error: { code, message, ...(field ? { field } : {}), ...(retryAfterSeconds ? { retryAfterSeconds } : {}) },
      });
    }
    const ctx: PageContext = { req, res, options: this.mount?.setup.pages };
    const view = errorView(ctx, {
      status: answer.status,
      code: answer.code,
      ...(answer.message !== undefined ? { message: answer.message } : {}),
      startAgainUrl: this.mount?.mount.routes.paths.signIn ?? '/',
    });
    showPage(ctx, view).catch((err: unknown) => {
      // Only an app's render hook can fail here: the page cannot be drawn, the status still goes out.
      this.logger.error(`the error page could not be drawn: ${(err as Error)?.message ?? String(err)}`);
      if (!answered(res)) sendJson(res, answer.status, { error: { code: answer.code, message: SETUP_MESSAGE } });
    });
  }

  /** The status and code of an error, and what is logged where the developer looks. */
  private answerFor(err: OtplessError): Answer {
    if (err instanceof OtplessSetupError) {
      this.logger.error(err.message);
      return { status: 500, code: err.code, message: undefined };
    }
    // The app called the client with an argument it refused: the visitor's input, as send() answers it.
    if (isOtplessError(err, 'INVALID_ARGUMENT')) {
      return { status: 400, code: 'INVALID_INPUT', message: err.message, field: err.field };
    }
    // A call of the app's own to the client: answered as the routes answer a failed service.
    const failure = err instanceof OtplessRequestError ? err : isClientError(err) ? serviceFailure(err) : undefined;
    if (!failure) {
      this.logger.error(err.message);
      return { status: 500, code: err.code, message: undefined };
    }
    if (failure.status >= 500) this.logger.warn(`${failure.message} (${failure.code})`);
    return {
      status: failure.status,
      code: failure.code,
      message: failure.message,
      field: failure.field,
      retryAfterSeconds: failure.retryAfterSeconds,
    };
  }
}

// `instanceof OtplessError` also holds for an error of a second copy of the package (see src/errors/brand.ts).
Catch(OtplessError)(OtplessExceptionFilter);
