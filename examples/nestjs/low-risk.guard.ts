import { Injectable } from '@nestjs/common';
import type { CanActivate, ExecutionContext } from '@nestjs/common';
import type { Request } from 'express';
import { requireLowRisk } from 'passport-otpless';
import type { GuardMiddleware, RequireLowRiskOptions } from 'passport-otpless';
import { runMiddleware } from './middleware.js';
import type { HostResponse } from './middleware.js';

/**
 * `requireLowRisk()` as a Nest guard: `@UseGuards(new LowRiskGuard({ policy: { vpn: 'block' } }))`.
 *
 * The middleware calls `next()` to let the request through (with `req.risk` set), `next(err)`
 * for a setup error, and answers a refusal itself (401 `UNAUTHENTICATED`, 403 `RISK_CHALLENGE`,
 * `RISK_BLOCKED`; JSON or a page). Then the guard says no, and Nest, seeing the response sent,
 * writes nothing more. The same class runs on @nestjs/platform-express and @nestjs/platform-fastify.
 */
@Injectable()
export class LowRiskGuard implements CanActivate {
  private readonly check: GuardMiddleware;

  constructor(options?: RequireLowRiskOptions) {
    this.check = requireLowRisk(options);
  }

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const http = context.switchToHttp();
    // On Express or Fastify alike: the guard answered a refusal itself, or let the request through.
    const answered = await runMiddleware(this.check, http.getRequest<Request>(), http.getResponse<HostResponse>());
    return !answered;
  }
}
