import { FLOW_PARAM } from '../flow/handoff.js';
import type { HttpRequest } from '../web/request.js';
import { warnOnce } from '../errors/warnings.js';

/**
 * After a verified code that came back without its flow id: tells the operator when the
 * service's evidence says a binding may be lost. A visitor can bring this about with a link of
 * their own (the flow id taken out), so the words blame no one: otpless-check tells which. Only on the service's evidence: the code came in the
 * URL the link opened (its query), and the service verified it. A code POSTed in a body without
 * its flow is the app's page leaving the flow out, and says nothing of the service.
 *
 * `flowDropped`: the service's request id named a send of this browser whose link carried a
 * flow id. `unbound`: it named none, and the strategy does not accept unbound links.
 */
export function warnIfBindingLost(req: HttpRequest, found: { flowDropped: boolean; unbound: boolean }): void {
  if (!codeInQuery(req)) return;
  if (found.flowDropped) {
    // The code belongs to a send whose redirect_uri carried the flow, and it came back without it.
    warnOnce(
      'OTPLESS_FLOW_PARAM_MISSING',
      `passport-otpless: a sign-in link came back without its "${FLOW_PARAM}" parameter: either the service drops ` +
        'the query of redirect_uri (then cross-device handoff cannot work), or a visitor opened an altered link. ' +
        "Same-browser logins fall back to the service's request id. `npx otpless-check` tells which.",
    );
  }
  if (found.unbound) {
    warnOnce(
      'OTPLESS_BINDING_FAILED',
      "passport-otpless: a link came back without its flow parameter and the service's requestId matched no " +
        'send of the browser: either neither binding holds for this service, or a visitor opened an altered ' +
        'link in another browser. `npx otpless-check` tells which.',
    );
  }
}

/** True when the code came in the URL itself, as the service's redirect puts it (not in a body). */
function codeInQuery(req: HttpRequest): boolean {
  const url = (req as HttpRequest & { originalUrl?: string }).originalUrl ?? req.url ?? '';
  return new URLSearchParams(url.split('?')[1] ?? '').has('code');
}
