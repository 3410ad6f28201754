import type { ServerResponse } from 'node:http';
import type { Request, Response } from 'express';
import type { GuardMiddleware } from 'passport-otpless';

/**
 * The response a Nest handler or guard gets: Express's `Response` on @nestjs/platform-express,
 * Fastify's reply (with Node's response in `raw`) on @nestjs/platform-fastify.
 */
export type HostResponse = Response | { raw: ServerResponse };

/** Node's own response under either platform: where 'close' tells that the answer went out. */
export function nodeResponse(res: HostResponse): ServerResponse {
  return 'raw' in res ? res.raw : res;
}

/**
 * Runs a handler of the package (`strategy.send()`, `strategy.status()`, a guard) inside Nest,
 * on Express or Fastify alike (the package tells the two apart itself): settles once it answered
 * (true) or called `next()` (false), and rejects on `next(err)`, so Nest's exception filters see
 * the error.
 */
export function runMiddleware(middleware: GuardMiddleware, req: Request, res: HostResponse): Promise<boolean> {
  const raw = nodeResponse(res);
  return new Promise((resolve, reject) => {
    const answered = (): void => resolve(true);
    raw.once('close', answered);
    (middleware as (req: Request, res: HostResponse, next: (err?: unknown) => void) => void)(req, res, (err) => {
      raw.off('close', answered);
      if (err) reject(err);
      else resolve(false);
    });
  });
}
