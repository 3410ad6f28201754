import { Controller, Get, Req, UnauthorizedException, UseGuards } from '@nestjs/common';
import type { Request } from 'express';
import { LowRiskGuard } from './low-risk.guard.js';

@Controller()
export class AccountController {
  @Get()
  home(): { signIn: string } {
    return { signIn: 'POST /auth/magic-link with { "email": "you@example.com" }, then open the link' };
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
}
