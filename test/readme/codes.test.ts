import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { CALLBACK_FAILURES } from '../../src/strategy/failures.js';

// docs/codes.md is where a developer looks a code up: every code the package can answer or warn
// with has a row there, and every warning row names a warning the package emits.
const root = fileURLToPath(new URL('../..', import.meta.url));
const doc = readFileSync(join(root, 'docs/codes.md'), 'utf8');
const errors = readFileSync(join(root, 'src/errors.ts'), 'utf8');

/** The codes of a table row's first cell: `| \`CODE\` | ...`. */
const rowCodes = new Set([...doc.matchAll(/^\| `([A-Z_]+)` \|/gm)].map((m) => m[1]!));

/** The string members of an exported union type of src/errors.ts. */
function unionOf(name: string): string[] {
  const body = new RegExp(`export type ${name} =([^;]*);`).exec(errors)?.[1] ?? '';
  return [...body.matchAll(/'([A-Z_]+)'/g)].map((m) => m[1]!);
}

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
  it('has a row for every request, setup and callback code', () => {
    const codes = [
      ...unionOf('RequestFailureReason'),
      ...unionOf('SetupFailureReason'),
      ...Object.keys(CALLBACK_FAILURES),
    ];
    expect(codes).toEqual(expect.arrayContaining(['BODY_TOO_LARGE', 'MISSING_SESSION', 'WRONG_BROWSER']));
    expect(codes.filter((code) => !rowCodes.has(code))).toEqual([]);
  });

  it('has a row for every warning the package emits, and no row for one it does not', () => {
    const emitted = warningCodes();
    expect(emitted.size).toBeGreaterThanOrEqual(10);
    const documented = [...rowCodes].filter((code) => code.startsWith('OTPLESS_'));
    expect([...emitted].filter((code) => !rowCodes.has(code))).toEqual([]);
    expect(documented.filter((code) => !emitted.has(code))).toEqual([]);
  });
});
