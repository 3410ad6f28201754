/**
 * docs/codes.md's table of operator warnings, rendered from the warnings table
 * (src/errors/warnings.ts): the doc marks it `<!-- warnings ... -->` ... `<!-- /warnings -->`.
 * `npm run docs:warnings` rewrites it; test/errors/warnings.test.ts fails when they differ.
 */
import { EMULATOR_WARNINGS, WARNINGS } from '../../src/errors/warnings.js';

export const WARNINGS_DOC = 'docs/codes.md';

/** The markdown table: one row per warning, the library's in the table's order, then the emulator's. */
export function renderWarningTable(): string {
  const rows = Object.entries({ ...WARNINGS, ...EMULATOR_WARNINGS }).map(
    ([code, entry]) => `| \`${code}\` | ${entry.doc} |`,
  );
  return ['| code | what it means |', '|---|---|', ...rows].join('\n');
}

/** `text` with its warnings region rendered from the table; throws when the markers are missing. */
export function withWarningTable(text: string): string {
  const region = /(<!-- warnings\b[^>]*-->\n)[\s\S]*?(\n<!-- \/warnings -->)/;
  if (!region.test(text)) throw new Error(`${WARNINGS_DOC} has no <!-- warnings --> region`);
  return text.replace(region, (_all, start: string, end: string) => `${start}\n${renderWarningTable()}\n${end}`);
}
