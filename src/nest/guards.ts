import type { CanActivate, ExecutionContext } from '@nestjs/common';
import type { ServerResponse } from 'node:http';
import type { GuardMiddleware, GuardOptions } from '../guards/core.js';
import { requireIdentity } from '../guards/requireIdentity.js';
import { requireLowRisk } from '../guards/requireLowRisk.js';
import type { RequireLowRiskOptions } from '../guards/requireLowRisk.js';
import { nodeArgs } from '../web/host.js';
import type { ReplyLike } from '../web/host.js';
import type { HttpRequest } from '../web/request.js';
import type { IdentityType } from '../wire/types.js';

/**
 * Runs a guard of the package inside Nest, on Express or Fastify alike: true when it lets the
 * request through (`req.risk` set), false once it has answered a refusal itself (401
 * `UNAUTHENTICATED`, 403 `RISK_CHALLENGE` ..., JSON or a page; Nest then writes nothing more),
 * and a rejection with its error (a setup mistake), for the exception filters.
 */
export function runGuard(guard: GuardMiddleware, context: ExecutionContext): Promise<boolean> {
  const http = context.switchToHttp();
  const [req, res] = nodeArgs<HttpRequest>(
    http.getRequest<HttpRequest>(),
    http.getResponse<ServerResponse | ReplyLike>(),
  );
  return new Promise((resolve, reject) => {
    // 'close' comes once the refusal is written out, so Nest sees the answer sent.
    const refused = (): void => resolve(false);
    res.once('close', refused);
    guard(req, res, (err?: unknown) => {
      res.off('close', refused);
      if (err) reject(err as Error);
      else resolve(true);
    });
  });
}

/**
 * `requireLowRisk()` as a Nest guard: only a login whose risk signals are judged `allow` passes.
 *
 * @example
 * @UseGuards(new LowRiskGuard({ policy: { vpn: 'block' } }))
 */
export class LowRiskGuard implements CanActivate {
  private readonly guard: GuardMiddleware;

  /** @param options as `requireLowRisk()` takes them, checked here */
  constructor(options?: RequireLowRiskOptions) {
    this.guard = requireLowRisk(options);
  }

  canActivate(context: ExecutionContext): Promise<boolean> {
    return runGuard(this.guard, context);
  }
}

/**
 * `requireIdentity()` as a Nest guard: only a login that verified a mobile number (or an
 * e-mail address) passes; otherwise 403 `IDENTITY_REQUIRED`.
 *
 * @example
 * @UseGuards(new IdentityGuard('MOBILE'))
 */
export class IdentityGuard implements CanActivate {
  private readonly guard: GuardMiddleware;

  /** @param type the identity the login must have verified; `options` as `requireIdentity()` takes them */
  constructor(type: IdentityType, options?: GuardOptions) {
    this.guard = requireIdentity(type, options);
  }

  canActivate(context: ExecutionContext): Promise<boolean> {
    return runGuard(this.guard, context);
  }
}
