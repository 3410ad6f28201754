import type { ServerResponse } from 'node:http';
import { translatorFor } from '../messages/index.js';
import type { Translator } from '../messages/index.js';
import type { HttpRequest } from '../request.js';
import type { PageOptions } from '../view.js';

/** The words and look of the pages for one request. */
export interface PageContext {
  req: HttpRequest;
  res: ServerResponse;
  options: PageOptions | undefined;
}

/** The translator for a request, by the app's `pages` options. */
export function translate(ctx: Pick<PageContext, 'req' | 'options'>): Translator {
  return translatorFor(ctx.req, ctx.options);
}

/**
 * Where a page's forms post when they post back to the page's own URL (its query holds the
 * link's code), which a form without an `action` does. The page never repeats the URL, so never
 * the code.
 */
export const SELF = '';
