import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { CLIENT_ERROR_CODES, REQUEST_ERROR_CODES, SETUP_ERROR_CODES } from '../../src/errors/codes.js';
import {
  OtplessApiError,
  OtplessInputError,
  OtplessNetworkError,
  OtplessResponseError,
  OtplessStateError,
  OtplessTimeoutError,
} from '../../src/errors/index.js';
import { CALLBACK_FAILURES } from '../../src/login/failures.js';

// docs/codes.md is where a developer looks a code up: each table of it holds exactly the codes
// of its part of the package, and every warning row names a warning the package emits.
const root = fileURLToPath(new URL('../..', import.meta.url));
const doc = readFileSync(join(root, 'docs/codes.md'), 'utf8');

/** The rows of the table under the `## ` heading that starts with `heading`, as their cells. */
function rowsUnder(heading: string): string[][] {
  const section = doc.split(/^## /m).find((s) => s.startsWith(heading));
  if (section === undefined) throw new Error(`docs/codes.md has no section "## ${heading}"`);
  return [...section.matchAll(/^\| `([A-Z_]+)` \|(.*)\|$/gm)].map((m) => [
    m[1]!,
    ...m[2]!.split('|').map((c) => c.trim()),
  ]);
}

const codesUnder = (heading: string): string[] => rowsUnder(heading).map((row) => row[0]!);

/** Every `OTPLESS_*` warning code written in src/. */
function warningCodes(): Set<string> {
  const codes = new Set<string>();
  const dir = join(root, 'src');
  for (const file of readdirSync(dir, { recursive: true, encoding: 'utf8' })) {
    if (!file.endsWith('.ts')) continue;
    for (const m of readFileSync(join(dir, file), 'utf8').matchAll(/'(OTPLESS_[A-Z_]+)'/g)) codes.add(m[1]!);
  }
  return codes;
}

describe('docs/codes.md and the code agree', () => {
  it("the send's table holds exactly the codes of OtplessRequestError", () => {
    expect(codesUnder('The send').sort()).toEqual([...REQUEST_ERROR_CODES].sort());
  });

  it("the callback's table holds exactly its refusals", () => {
    expect(codesUnder('The callback').sort()).toEqual(Object.keys(CALLBACK_FAILURES).sort());
  });

  it('the setup table holds exactly the codes of OtplessSetupError', () => {
    expect(codesUnder('Setup errors').sort()).toEqual([...SETUP_ERROR_CODES].sort());
  });

  it("the client's table names each code with its class", () => {
    const errors = [
      new OtplessInputError('email', 'x'),
      new OtplessApiError({ endpoint: 'verifyCode', status: 500 }),
      new OtplessTimeoutError('verifyCode', 1),
      new OtplessNetworkError('verifyCode', 'x'),
      new OtplessResponseError('verifyCode', 200, 'x'),
      new OtplessStateError('verifyCode', 200, 'x'),
    ];
    expect(errors.map((e) => e.code).sort()).toEqual([...CLIENT_ERROR_CODES].sort());
    const documented = rowsUnder('The client').map(([code, cls]) => [code, cls]);
    expect(documented).toEqual(errors.map((e) => [e.code, `\`${e.name}\``]));
  });

  it('no code names two refusals: the tables of error classes share none', () => {
    const all = [...CLIENT_ERROR_CODES, ...REQUEST_ERROR_CODES, ...SETUP_ERROR_CODES];
    expect(all.length).toBe(new Set(all).size);
  });

  it('has a row for every warning the package emits, and no row for one it does not', () => {
    const emitted = warningCodes();
    expect(emitted.size).toBeGreaterThanOrEqual(10);
    const documented = codesUnder('Warnings');
    expect([...emitted].filter((code) => !documented.includes(code))).toEqual([]);
    expect(documented.filter((code) => !emitted.has(code))).toEqual([]);
  });
});
