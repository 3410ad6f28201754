import { Controller, Get, HttpCode, Inject, Post, Redirect, Req, Res, UseGuards } from '@nestjs/common';
import type { Request } from 'express';
import type { SendMiddleware } from 'passport-otpless';
import { MagicLinkAuthGuard } from './magic-link.guard.js';
import { MagicLinkAuthStrategy } from './magic-link.strategy.js';
import { runMiddleware } from './middleware.js';
import type { HostResponse } from './middleware.js';

@Controller('auth')
export class AuthController {
  private readonly sendLink: SendMiddleware;
  private readonly flowStatus: ReturnType<MagicLinkAuthStrategy['status']>;

  constructor(@Inject(MagicLinkAuthStrategy) strategy: MagicLinkAuthStrategy) {
    this.sendLink = strategy.send();
    this.flowStatus = strategy.status();
  }

  /** `{ email }` or `{ mobile }` (JSON or a form; Nest parses both): sends the link. */
  @Post('magic-link')
  async send(@Req() req: Request, @Res() res: HostResponse): Promise<void> {
    await runMiddleware(this.sendLink, req, res);
  }

  /** The link lands here. Signed in: on to /me. Refused: the strategy's status and code. */
  @Get('callback')
  @UseGuards(MagicLinkAuthGuard)
  @Redirect('/me', 303)
  callback(): void {}

  /** The phone's approval form (cross-device), and `confirm: true`'s button, post here. */
  @Post('callback')
  @UseGuards(MagicLinkAuthGuard)
  @Redirect('/me', 303)
  callbackPost(): void {}

  /** Where the waiting page's cross-device flow stands. */
  @Get('status')
  async status(@Req() req: Request, @Res() res: HostResponse): Promise<void> {
    await runMiddleware(this.flowStatus, req, res);
  }

  @Post('logout')
  @HttpCode(200)
  logout(@Req() req: Request): Promise<{ signedOut: true }> {
    return new Promise((resolve, reject) => req.logout((err) => (err ? reject(err) : resolve({ signedOut: true }))));
  }
}
