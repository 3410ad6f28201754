import { HttpException, Injectable } from '@nestjs/common';
import type { ExecutionContext } from '@nestjs/common';
import { AuthGuard } from '@nestjs/passport';
import type { Request } from 'express';

/**
 * `AuthGuard('magic-link')` for the callback route, with the two things Nest's guard does not
 * do by itself: it logs the user in to the session (`logIn`), and it answers a refusal with
 * the strategy's own status and code (403 `WRONG_BROWSER`, 401 `CODE_REJECTED` ...) instead
 * of a bare 401.
 */
@Injectable()
export class MagicLinkAuthGuard extends AuthGuard('magic-link') {
  override async canActivate(context: ExecutionContext): Promise<boolean> {
    const allowed = (await super.canActivate(context)) as boolean;
    // Passport regenerates the session here (session fixation); passport-otpless then writes
    // the login record the risk guards read.
    await super.logIn(context.switchToHttp().getRequest<Request>());
    return allowed;
  }

  override handleRequest<TUser>(
    err: unknown,
    user: TUser | false,
    info: unknown,
    _ctx: unknown,
    status?: number,
  ): TUser {
    if (err) throw err; // a service failure (502/503/504) or validate's own error
    if (!user) throw new HttpException({ error: info }, typeof status === 'number' ? status : 401);
    return user;
  }
}
