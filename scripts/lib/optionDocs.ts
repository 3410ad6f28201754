/**
 * The docs' option references, rendered from the option tables (src/options/table.ts): each
 * doc marks its generated region `<!-- options:ID ... -->` ... `<!-- /options:ID -->`.
 * `npm run docs:options` rewrites them; test/options/docs.test.ts fails when they differ.
 */
import type { OptionEntry } from '../../src/options/table.js';
import { BOT_CHECK_OPTIONS } from '../../src/botCheck/botCheck.js';
import { CLIENT_OPTIONS } from '../../src/client/options.js';
import { REQUIRE_LOW_RISK_OPTIONS } from '../../src/guards/requireLowRisk.js';
import { SEND_LIMITS_OPTIONS } from '../../src/limits/options.js';
import { MAGIC_LINK_ROUTES_OPTIONS } from '../../src/routes/mount.js';
import { SEND_OPTIONS } from '../../src/routes/send.js';
import { STRATEGY_OPTIONS } from '../../src/login/optionTable.js';

/** One generated region: which table, in which doc, under which first header cell. */
export interface OptionDoc {
  id: string;
  file: string;
  table: Readonly<Record<string, OptionEntry>>;
  /** The first column's header (`option`, or `limits option` for a nested one). */
  header: string;
}

/** Every generated option reference, by doc. */
export const OPTION_DOCS: readonly OptionDoc[] = [
  { id: 'strategy', file: 'docs/strategy.md', table: STRATEGY_OPTIONS, header: 'option' },
  { id: 'mount', file: 'docs/strategy.md', table: MAGIC_LINK_ROUTES_OPTIONS, header: 'option' },
  { id: 'send', file: 'docs/strategy.md', table: SEND_OPTIONS, header: 'option' },
  { id: 'limits', file: 'docs/send-limits.md', table: SEND_LIMITS_OPTIONS, header: '`limits` option' },
  { id: 'botCheck', file: 'docs/send-limits.md', table: BOT_CHECK_OPTIONS, header: '`botCheck()` option' },
  { id: 'requireLowRisk', file: 'docs/risk-guards.md', table: REQUIRE_LOW_RISK_OPTIONS, header: 'options' },
  { id: 'client', file: 'docs/client.md', table: CLIENT_OPTIONS, header: 'option' },
];

/** The markdown table of one option table: name, default, doc. */
export function renderOptionTable(doc: OptionDoc): string {
  const rows = Object.entries(doc.table).map(
    ([name, entry]) => `| \`${name}\` | ${defaultCell(entry)} | ${entry.doc} |`,
  );
  return [`| ${doc.header} | default | what it does |`, '|---|---|---|', ...rows].join('\n');
}

/** `text` with the region of `doc` rendered from its table; throws when the markers are missing. */
export function withOptionTable(text: string, doc: OptionDoc): string {
  const region = new RegExp(`(<!-- options:${doc.id}\\b[^>]*-->\\n)[\\s\\S]*?(\\n<!-- /options:${doc.id} -->)`);
  if (!region.test(text)) throw new Error(`${doc.file} has no <!-- options:${doc.id} --> region`);
  return text.replace(region, (_all, start: string, end: string) => `${start}\n${renderOptionTable(doc)}\n${end}`);
}

function defaultCell(entry: OptionEntry): string {
  if (entry.defaultDoc !== undefined) return entry.defaultDoc;
  if (entry.default === undefined) return 'none';
  return `\`${shown(entry.default)}\``;
}

function shown(value: unknown): string {
  if (typeof value === 'string') return `'${value}'`;
  if (Array.isArray(value)) return `[${value.map(shown).join(', ')}]`;
  return String(value);
}
