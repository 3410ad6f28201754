/**
 * The report as a person reads it (a table, what was seen on the way, and what works for this
 * account) or as a program reads it (JSON). Both are built from the report alone, which holds
 * no secret, code or token.
 */

import { FINDING_KEYS, type CheckReport, type FindingKey, type Outcome } from './types.js';

/** What each finding asks, in the table's first column. */
export const FINDING_TITLES: Readonly<Record<FindingKey, string>> = {
  credentials: 'credentials accepted',
  channel: 'channel=SMS honoured',
  callbackParam: "code's parameter",
  queryKept: 'query of redirect_uri kept',
  codeAccepted: "verify-code takes the link's code",
  requestIds: 'request ids equal',
  verifyShape: 'verify-code shape',
  replay: 'used code refused',
  enrichment: "enrichment takes verify's token",
  tokenTimestamp: 'validate-token timestamp stays put',
  verifiedAt: 'identities verifiedAt stays put',
  lastActiveAt: 'session startedAt stays put (lastActiveAt read)',
  riskValues: 'risk values in known spellings and 0..1',
  linkTwice: "link survives a scanner's GET",
  plusSign: '+ in mobile_number',
};

/** The second column: whether the service did what the library assumes. */
const MARKS: Readonly<Record<Outcome, string>> = {
  expected: 'as assumed',
  unexpected: 'DIFFERS',
  skipped: 'skipped',
  failed: 'FAILED',
};

/**
 * The report as text: the table, then what was seen on the way, then the recommendations.
 *
 * @example
 * process.stdout.write(renderTable(await runCheck(options)));
 */
export function renderTable(report: CheckReport): string {
  const rows = FINDING_KEYS.map((key) => [FINDING_TITLES[key], MARKS[report[key].outcome], report[key].answer]);
  const header = ['check', 'result', 'answer'];
  const widths = [0, 1].map((i) => Math.max(header[i]!.length, ...rows.map((row) => row[i]!.length)));
  const line = (cells: string[]) => cells.map((cell, i) => (i < 2 ? cell.padEnd(widths[i]!) : cell)).join('  ');
  const out = [
    `OTPless account check (${report.authUrl}, ${report.userAuthUrl})`,
    '',
    line(header),
    line(widths.map((width) => '-'.repeat(width)).concat('------')),
    ...rows.map(line),
  ];
  const seen = [
    ...(report.observed.errorWith200.length > 0
      ? [`- errors answered with HTTP 200: ${report.observed.errorWith200.join(', ')}`]
      : []),
    ...(report.observed.noErrorCodeOn401.length > 0
      ? [`- 401 without errorCode: ${report.observed.noErrorCodeOn401.join(', ')}`]
      : []),
  ];
  if (seen.length > 0) out.push('', 'Seen on the way:', ...seen);
  if (report.recommendations.length > 0) {
    out.push('', 'What this means for passport-otpless:', ...report.recommendations.map((r) => `- ${r.text}`));
  }
  out.push('', report.complete ? 'Every check ran.' : 'Not every check ran: see FAILED and skipped above.');
  return `${out.join('\n')}\n`;
}

/** The report as JSON (two-space indent, trailing newline): the same fields as `CheckReport`. */
export function renderJson(report: CheckReport): string {
  return `${JSON.stringify(report, null, 2)}\n`;
}
