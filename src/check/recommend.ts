/**
 * From findings to settings: which `crossDevice` and `enrich` work for this account, and what
 * else the findings mean for a login through the strategy. Each line names the finding it rests
 * on, so a person can check the reasoning against the table.
 */

import { SERVICE_ERROR_CODES } from '../wire/serviceErrors.js';
import { briefly } from './answers.js';
import { lastActive, risk, scanner, tokenTimestamp, verifiedAt } from './recommendUnknowns.js';
import type { Findings } from './recommendUnknowns.js';
import type { Recommendation } from './types.js';

/** Every recommendation the findings support, most important first. */
export function recommend(report: Findings): Recommendation[] {
  // Without working credentials nothing else ran: the one thing to do is fix them.
  if (report.credentials.accepted !== true) return credentials(report);
  return [
    ...credentials(report),
    ...callback(report),
    ...binding(report),
    ...enrich(report),
    ...channel(report),
    ...replay(report),
    ...tokenTimestamp(report),
    ...verifiedAt(report),
    ...lastActive(report),
    ...risk(report),
    ...scanner(report),
    ...shape(report),
    ...errors(report),
  ];
}

function credentials({ credentials: c }: Findings): Recommendation[] {
  if (c.accepted === false) {
    const how = c.probe ? ` (${briefly(c.probe)})` : '';
    return [
      {
        topic: 'credentials',
        text:
          `credentials: the service refused them${how} → check OTPLESS_CLIENT_ID / OTPLESS_CLIENT_SECRET; ` +
          'until then every send and login fails with a 502. Nothing else was checked.',
      },
    ];
  }
  if (c.outcome === 'failed') {
    return [
      {
        topic: 'credentials',
        text: 'credentials: could not tell (see the table) → check --auth-url and the network, then run again.',
      },
    ];
  }
  return [];
}

function callback({ callbackParam: p, codeAccepted: v }: Findings): Recommendation[] {
  const out: Recommendation[] = [];
  if (p.sendError?.errorCode === SERVICE_ERROR_CODES.invalidRedirectUri) {
    out.push({
      topic: 'callback',
      text:
        'callback: the service refused the redirect URI (7108) → allow it in your OTPless app (http://127.0.0.1 ' +
        'with a fixed --port), or give --landing a page it allows; your callbackUrl must be allowed too.',
    });
  }
  if (p.outcome === 'unexpected' && p.name !== undefined) {
    out.push({
      topic: 'callback',
      text:
        `callback: the code came as "${p.name}" (${p.via}), not ?code= → the strategy reads only ?code=, so ` +
        'every login would fail with INVALID_CODE: report this to OTPless.',
    });
  } else if (p.outcome === 'unexpected') {
    out.push({
      topic: 'callback',
      text: 'callback: the landing URL carried no code → no magic-link login can work until this is understood.',
    });
  }
  if (v.accepted === false) {
    out.push({
      topic: 'callback',
      text:
        `callback: verify-code refused the link's code (${v.error ? briefly(v.error) : 'refused'}) → links from ` +
        "authorize and verify-code do not fit for this account; the strategy's logins would fail with CODE_REJECTED.",
    });
  }
  return out;
}

function binding(findings: Findings): Recommendation[] {
  const lines = bindingMode(findings);
  if (findings.requestIds.perChannel === 'separate') {
    lines.push({
      topic: 'binding',
      text: 'binding: each channel of a send has its own request id → no matter: the strategy keeps every id of a send.',
    });
  }
  return lines;
}

/** Which crossDevice modes work, from the two ways a link can be bound to the browser that asked. */
function bindingMode({ queryKept: q, requestIds: r }: Findings): Recommendation[] {
  if (q.kept === undefined) {
    return [
      { topic: 'binding', text: 'binding: not settled (no landing URL was read) → run again and open the link.' },
    ];
  }
  if (q.kept) {
    const lines: Recommendation[] = [
      {
        topic: 'binding',
        text: "binding: the flow parameter comes back → crossDevice 'handoff' (the default) works; so do 'refuse' and 'accept'.",
      },
    ];
    if (r.equal === false) {
      lines.push({
        topic: 'binding',
        text:
          "binding: verify-code's requestId is none of the send's → set requestIdsDiffer: true (logins are then bound " +
          'by the flow parameter alone; expect one OTPLESS_REQUEST_ID_DIFFERS warning in the log).',
      });
    }
    return lines;
  }
  if (r.equal === true) {
    return [
      {
        topic: 'binding',
        text:
          "binding: the query is dropped → same-browser logins fall back to requestId; use crossDevice 'refuse' or " +
          "'accept' ('handoff' cannot work: the phone's approval never finds its flow).",
      },
    ];
  }
  if (r.equal === false) {
    return [
      {
        topic: 'binding',
        text:
          "binding: the query is dropped and verify-code's requestId is none of the send's → nothing binds a link to " +
          "the browser that asked: with 'handoff' or 'refuse' every login fails (WRONG_BROWSER); only " +
          "crossDevice 'accept' signs in, whoever opens the link.",
      },
    ];
  }
  return [
    {
      topic: 'binding',
      text:
        "binding: the query is dropped → use crossDevice 'refuse' or 'accept'; whether requestId can bind " +
        'same-browser logins was not settled.',
    },
  ];
}

function enrich({ enrichment: e }: Findings): Recommendation[] {
  if (e.outcome === 'skipped') return [];
  if (e.outcome === 'failed') {
    return [{ topic: 'enrich', text: 'enrich: not settled (a call failed to run, see the table) → run again.' }];
  }
  const signals = (['validateToken', 'secureInfo'] as const).filter((name) => e[name]?.accepted);
  const refused = (['validateToken', 'secureInfo'] as const).filter((name) => e[name] && !e[name].accepted);
  const out: Recommendation[] = [];
  if (signals.length === 2) {
    out.push({
      topic: 'enrich',
      text:
        "enrich: validateToken and secureInfo accept verify-code's token → enrich: ['secureInfo'] (or " +
        "['validateToken']) works, and requireLowRisk() gets its signals.",
    });
  } else if (signals.length === 1) {
    out.push({
      topic: 'enrich',
      text:
        `enrich: ${signals[0]} accepts verify-code's token, ${refused[0]} refuses it → enrich: ['${signals[0]}'] ` +
        `works; leave '${refused[0]}' out (its failure fails every login).`,
    });
  } else {
    out.push({
      topic: 'enrich',
      text:
        "enrich: validateToken and secureInfo refuse verify-code's token → leave both out of enrich (either " +
        "would fail every login with a 502); requireLowRisk() then sees no signals and judges them 'missing'.",
    });
  }
  if (e.userInfo?.accepted) {
    out.push({ topic: 'enrich', text: "enrich: userInfo accepts it too → 'userInfo' adds the profile's name fields." });
  } else if (e.userInfo) {
    out.push({
      topic: 'enrich',
      text: "enrich: userInfo refuses it → 'userInfo' is harmless (its failure is ignored) but adds nothing.",
    });
  }
  return out;
}

function channel({ channel: c }: Findings): Recommendation[] {
  if (c.outcome !== 'unexpected') return [];
  return [
    {
      topic: 'channel',
      text:
        `channel: ${c.answer} → do not rely on channel: 'SMS' for this account; links to a mobile number go by ` +
        "WhatsApp, the service's default (the strategy sends no channel).",
    },
  ];
}

function replay({ replay: r }: Findings): Recommendation[] {
  if (r.refused === false) {
    return [
      {
        topic: 'replay',
        text: 'replay: a used code verified again → a leaked link stays usable after login: report this to OTPless.',
      },
    ];
  }
  const status = r.response?.status;
  // The strategy reads 400, 401, 404 and 410 as a refused code (401 CODE_REJECTED); anything else as a service failure.
  if (r.refused && status !== undefined && ![400, 401, 404, 410].includes(status)) {
    return [
      {
        topic: 'replay',
        text: `replay: a used code gets HTTP ${status} → a second click of a link answers 502, not 401 CODE_REJECTED.`,
      },
    ];
  }
  return [];
}

function shape({ verifyShape: s }: Findings): Recommendation[] {
  if (s.shape === 'legacy' || s.shape === 'mixed') {
    return [
      {
        topic: 'shape',
        text: `shape: verify-code answers the ${s.shape} shape → the client reads it; nothing to change.`,
      },
    ];
  }
  if (s.shape === 'unknown') {
    return [
      {
        topic: 'shape',
        text: 'shape: no completion time in the verify-code answer → logins work, verification times will be missing.',
      },
    ];
  }
  return [];
}

function errors({ observed }: Findings): Recommendation[] {
  const out: Recommendation[] = [];
  if (observed.errorWith200.length > 0) {
    out.push({
      topic: 'errors',
      text:
        `errors: answered with HTTP 200 (${observed.errorWith200.join(', ')}) → the client still reads them as ` +
        'API_ERROR (status 200, with errorCode); a refused code then reaches the callback as a 502, not 401 CODE_REJECTED.',
    });
  }
  if (observed.noErrorCodeOn401.length > 0) {
    out.push({
      topic: 'errors',
      text:
        `errors: 401 without errorCode (${observed.noErrorCodeOn401.join(', ')}) → the strategy reads such a 401 as ` +
        "refused credentials (502 and one warning) unless its message is 'Expired'.",
    });
  }
  return out;
}
