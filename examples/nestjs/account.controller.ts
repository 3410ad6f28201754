import { Controller, Get, HttpCode, Post, Req, UnauthorizedException, UseGuards } from '@nestjs/common';
import type { Request } from 'express';
import { LowRiskGuard } from 'passport-otpless/nest';

@Controller()
export class AccountController {
  @Get()
  home(): { signIn: string } {
    return { signIn: 'GET /auth/sign-in' };
  }

  @Get('me')
  me(@Req() req: Request): Express.User {
    if (!req.user) throw new UnauthorizedException();
    return req.user;
  }

  /** Only for a login whose risk signals are judged `allow`; `req.risk` says why. */
  @Get('payments')
  @UseGuards(new LowRiskGuard())
  payments(@Req() req: Request): { risk: string | undefined } {
    return { risk: req.risk?.action };
  }

  @Post('auth/logout')
  @HttpCode(200)
  logout(@Req() req: Request): Promise<{ signedOut: true }> {
    return new Promise((resolve, reject) => req.logout((err) => (err ? reject(err) : resolve({ signedOut: true }))));
  }
}
