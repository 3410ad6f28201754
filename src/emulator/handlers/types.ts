import type { IncomingMessage, ServerResponse } from 'node:http';
import type { EmulatorContext } from '../context.js';

/** Handles one request; `query` is the raw query string without `?`. Throws ApiError to answer an error. */
export type Handler = (
  ctx: EmulatorContext,
  req: IncomingMessage,
  res: ServerResponse,
  query: string,
) => Promise<void> | void;
