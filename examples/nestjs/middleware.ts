import type { ServerResponse } from 'node:http';
import type { Request, Response } from 'express';

type Middleware = (req: Request, res: ServerResponse, next: (err?: unknown) => void) => void;

/**
 * Runs Express-style middleware (`strategy.send()`, `strategy.status()`) inside a Nest route
 * handler that took `@Res()`: settles once the middleware answered or called `next()`, and
 * rejects on `next(err)`, so Nest's exception filters see the error.
 */
export function runMiddleware(middleware: Middleware, req: Request, res: Response): Promise<void> {
  return new Promise((resolve, reject) => {
    const answered = (): void => resolve();
    res.once('close', answered);
    middleware(req, res, (err?: unknown) => {
      res.off('close', answered);
      if (err) reject(err);
      else resolve();
    });
  });
}
