import { Injectable } from '@nestjs/common';
import type { CanActivate, ExecutionContext } from '@nestjs/common';
import type { Request, Response } from 'express';
import { requireLowRisk } from 'passport-otpless';
import type { GuardMiddleware, RequireLowRiskOptions } from 'passport-otpless';

/**
 * `requireLowRisk()` as a Nest guard: `@UseGuards(new LowRiskGuard({ policy: { vpn: 'block' } }))`.
 *
 * The middleware calls `next()` to let the request through (with `req.risk` set), `next(err)`
 * for a setup error, and answers a refusal itself (401 `UNAUTHENTICATED`, 403 `RISK_CHALLENGE`,
 * `RISK_BLOCKED`; JSON or a page). Then the guard says no, and Nest, seeing the response sent,
 * writes nothing more.
 */
@Injectable()
export class LowRiskGuard implements CanActivate {
  private readonly check: GuardMiddleware;

  constructor(options?: RequireLowRiskOptions) {
    this.check = requireLowRisk(options);
  }

  canActivate(context: ExecutionContext): Promise<boolean> {
    const http = context.switchToHttp();
    const req = http.getRequest<Request>();
    const res = http.getResponse<Response>();
    return new Promise((resolve, reject) => {
      const answered = (): void => resolve(false);
      res.once('close', answered);
      this.check(req, res, (err?: unknown) => {
        res.off('close', answered);
        if (err) reject(err);
        else resolve(true);
      });
    });
  }
}
