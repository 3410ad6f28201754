/**
 * The recommendations from the service's unknowns that only the real service settles
 * (docs/service-facts.md): validate-token's timestamps, verifiedAt, lastActiveAt, the risk
 * values' spellings and ranges, and a link opened twice. Apart from recommend.ts so each file
 * stays one screenful of rules.
 */

import type { CheckReport, Recommendation } from './types.js';

/** What the checks found: the report before its recommendations. */
export type Findings = Omit<CheckReport, 'recommendations' | 'complete'>;

export function tokenTimestamp({ tokenTimestamp: t }: Findings): Recommendation[] {
  if (t.outcome === 'skipped' || t.outcome === 'failed' || t.verifiedAt) return [];
  if (t.meaning === 'signIn') {
    return [
      {
        topic: 'replay',
        text:
          'replay: validate-token gives no verifiedAt, and its timestamp stays put (it dates the sign-in) → ' +
          'frontend-token logins can rest their age on it; until then they are refused (TOKEN_REJECTED).',
      },
    ];
  }
  return [
    {
      topic: 'replay',
      text:
        'replay: validate-token gives no verifiedAt, and its timestamp dates nothing a used mark could cover → ' +
        'frontend-token logins stay refused (TOKEN_REJECTED); use the magic link.',
    },
  ];
}

export function verifiedAt({ verifiedAt: v }: Findings): Recommendation[] {
  if (v.meaning !== 'answer') return [];
  return [
    {
      topic: 'replay',
      text:
        "replay: the identities' verifiedAt dates each answer, not the sign-in → a frontend token (a POSTed " +
        '`token`) reads as fresh on every validation, so its age cannot bound a replay: set ' +
        "tokenVerifiedAt: 'answer' (every frontend-token login is refused; the default 'learn' finds this " +
        'itself after the first one, and keeps used marks for a day until then), and report this to OTPless. ' +
        "Magic-link logins are not affected (they rest on the service's single-use code).",
    },
  ];
}

export function lastActive({ lastActiveAt: l }: Findings): Recommendation[] {
  if (l.outcome === 'skipped' || l.outcome === 'failed') return [];
  if (l.startedAtSteady === false) {
    return [
      {
        topic: 'session',
        text:
          `session: ${l.answer} → a session-token login's age rests on startedAt: each such token still signs ` +
          'in once (its used mark), but its age is not bounded as documented; report this to OTPless.',
      },
    ];
  }
  const why =
    l.meaning === 'read'
      ? 'reading moves lastActiveAt, so it tells nothing about the person'
      : l.meaning === 'activity'
        ? 'reading leaves lastActiveAt alone'
        : 'lastActiveAt is absent';
  return [
    {
      topic: 'session',
      text:
        `session: ${why} → nothing to change: session-token logins rest on startedAt (which stayed put), ` +
        'never on lastActiveAt; profile.lastActiveAt is shown as the service gave it.',
    },
  ];
}

const KNOWN_BOT_SHOWN = new Set(['"notDetected"', '"good"', '"bad"']);

export function risk({ riskValues: r }: Findings): Recommendation[] {
  if (r.outcome === 'skipped' && r.answers === 0) {
    return [
      {
        topic: 'risk',
        text:
          "risk: no answer carried risk signals → requireLowRisk() reads them as 'missing' (block by default); " +
          "use it only once the service's secure SDK is on for your app, or set its policy on purpose.",
      },
    ];
  }
  if (r.outcome !== 'unexpected') return [];
  const out: Recommendation[] = [];
  const odd = (r.botResults ?? []).filter((value) => !KNOWN_BOT_SHOWN.has(value));
  if (odd.length > 0) {
    out.push({
      topic: 'risk',
      text:
        `risk: bot.result came as ${odd.join(', ')}, a spelling the package does not know → requireLowRisk() ` +
        "counts any bot value but notDetected as a bot (the 'bot' action, block by default): logins with it are " +
        'refused, never let through; report the spelling so it can be read.',
    });
  }
  for (const [name, range] of [
    ['confidence.score', r.confidenceScore],
    ['tampering.anomalyScore', r.anomalyScore],
  ] as const) {
    if (range === undefined) continue;
    if (range.notNumbers || range.seen === 0 || range.min! < 0 || range.max! > 1) {
      out.push({
        topic: 'risk',
        text:
          `risk: ${name} came outside 0..1 (${range.seen > 0 ? `${range.min}..${range.max}` : 'no number'}) → ` +
          "requireLowRisk() reads it as malformed (the 'malformed' action, block by default): such logins are " +
          'refused, never let through; report the scale.',
      });
    }
  }
  return out;
}

export function scanner({ linkTwice: t }: Findings): Recommendation[] {
  if (t.outcome === 'expected') {
    return [
      {
        topic: 'scanner',
        text:
          "scanner: the link survives a first GET → mail scanners do not break links; with crossDevice 'handoff' " +
          '(the default) or confirm: true, the code a scanner sees signs nobody in.',
      },
    ];
  }
  if (t.outcome !== 'unexpected') return [];
  return [
    {
      topic: 'scanner',
      text:
        `scanner: ${t.answer} → links to a mailbox behind a link scanner fail for the person (the package ` +
        "cannot help: the hop is the service's); prefer the mobile channel for such users, and report this to OTPless.",
    },
  ];
}
