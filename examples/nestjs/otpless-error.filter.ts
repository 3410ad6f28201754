import { Catch, Logger } from '@nestjs/common';
import type { ArgumentsHost } from '@nestjs/common';
import { BaseExceptionFilter } from '@nestjs/core';
import type { Response } from 'express';
import { isOtplessError } from 'passport-otpless';

/**
 * Nest answers 500 to any error that is not its own `HttpException`. passport-otpless's errors
 * carry the status to answer: 502/503/504 when the service failed, 400 for bad input (an
 * `OtplessRequestError`, whose `toJSON()` is the body), 500 for a setup mistake.
 * Matched by `code` (`isOtplessError`), not `instanceof`, so two copies of the package still match.
 */
@Catch()
export class OtplessErrorFilter extends BaseExceptionFilter {
  private readonly logger = new Logger('passport-otpless');

  override catch(exception: unknown, host: ArgumentsHost): void {
    const res = host.switchToHttp().getResponse<Response>();
    if (isOtplessError(exception, 'REQUEST_FAILED') && !res.headersSent) {
      if (exception.status >= 500) this.logger.warn(`${exception.message} (${exception.reason})`);
      res.status(exception.status).json(exception.toJSON());
      return;
    }
    if (isOtplessError(exception, 'SETUP_ERROR') && !res.headersSent) {
      this.logger.error(exception.message);
      res.status(500).json({ error: { code: exception.reason, message: 'The server is not set up right.' } });
      return;
    }
    super.catch(exception, host);
  }
}
