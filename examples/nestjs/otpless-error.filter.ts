import { Catch, Logger } from '@nestjs/common';
import type { ArgumentsHost } from '@nestjs/common';
import { BaseExceptionFilter } from '@nestjs/core';
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
    // Through Nest's adapter: the same filter answers on Express and on Fastify.
    const adapter = this.applicationRef;
    const res: unknown = host.switchToHttp().getResponse();
    if (!adapter || adapter.isHeadersSent(res)) return super.catch(exception, host);
    if (isOtplessError(exception, 'REQUEST_FAILED')) {
      if (exception.status >= 500) this.logger.warn(`${exception.message} (${exception.reason})`);
      adapter.reply(res, exception.toJSON(), exception.status);
      return;
    }
    if (isOtplessError(exception, 'SETUP_ERROR')) {
      this.logger.error(exception.message);
      adapter.reply(res, { error: { code: exception.reason, message: 'The server is not set up right.' } }, 500);
      return;
    }
    super.catch(exception, host);
  }
}
