import type { IncomingMessage, ServerResponse } from 'node:http';
import type { EmulatorContext } from '../context.js';
import { DEFAULT_USER_AGENT, MAX_USER_AGENT_LENGTH } from '../device.js';
import { sendHtml } from '../http.js';
import { randomId } from '../ids.js';
import { messagePage } from '../inbox.js';
import { normalizeIp } from '../location.js';
import { withCode, withCodeOnly } from '../redirect.js';
import { isRiskScenario, RISK_SCENARIOS } from '../scenarios.js';

function languageOf(req: IncomingMessage): string {
  const first = (req.headers['accept-language'] ?? '').split(',', 1)[0]?.split(';', 1)[0]?.trim();
  return first && /^[A-Za-z]{2,3}(-[A-Za-z0-9]{2,8})*$/.test(first) ? first : 'en-US';
}

/**
 * GET /__emulator/link/<id>[?risk=<scenario>]: the user clicks the magic link. Records the
 * scenario and the browser, then redirects to redirect_uri with the login's one code.
 */
export function openLink(
  ctx: EmulatorContext,
  req: IncomingMessage,
  res: ServerResponse,
  linkId: string,
  query: string,
): void {
  const login = ctx.store.findByLink(linkId);
  if (!login?.link) {
    sendHtml(
      res,
      404,
      messagePage('Unknown link', 'This magic link does not exist (or the emulator was reset or restarted).'),
    );
    return;
  }
  const risk = new URLSearchParams(query).get('risk') ?? 'clean';
  if (!isRiskScenario(risk)) {
    sendHtml(res, 400, messagePage('Unknown risk scenario', `Use one of: ${RISK_SCENARIOS.join(', ')}.`));
    return;
  }
  if (ctx.clock.now() >= login.link.expiresAt) {
    sendHtml(
      res,
      410,
      messagePage('Link expired', 'This magic link has expired. Go back to the app and ask for a new one.'),
    );
    return;
  }
  // Once verified, the login's details are fixed; a later click only repeats the redirect.
  if (!login.completion) {
    login.scenario = risk;
    login.seen = {
      // Capped: no real browser sends more, and the login keeps it.
      userAgent: (req.headers['user-agent'] || DEFAULT_USER_AGENT).slice(0, MAX_USER_AGENT_LENGTH),
      ip: normalizeIp(req.socket.remoteAddress),
      language: languageOf(req),
    };
  }
  const code = ctx.store.assignCode(login, randomId(18));
  const redirect = ctx.quirks.stripRedirectQuery ? withCodeOnly : withCode;
  res.writeHead(302, {
    location: redirect(login.link.redirectUri, code),
    'cache-control': 'no-store',
    // The redirect target must not learn the link through Referer.
    'referrer-policy': 'no-referrer',
    'content-length': 0,
  });
  res.end();
}
