// The operator's warnings are one table (src/errors/warnings.ts): every one is emitted through
// warnOnce from it, and docs/codes.md shows the table as rendered from it.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { renderWarningTable, withWarningTable, WARNINGS_DOC } from '../../scripts/lib/warningDocs.js';
import { EMULATOR_WARNINGS, WARNINGS, warnOnce } from '../../src/errors/warnings.js';

const root = fileURLToPath(new URL('../..', import.meta.url));

/** Every .ts file of src/, with its path under src/ and its text. */
function sources(): { path: string; text: string }[] {
  return readdirSync(join(root, 'src'), { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.ts'))
    .map((path) => ({ path, text: readFileSync(join(root, 'src', path), 'utf8') }));
}

describe('the warnings table and docs/codes.md', () => {
  it('docs/codes.md shows the table as rendered from it (run npm run docs:warnings when this fails)', () => {
    const text = readFileSync(join(root, WARNINGS_DOC), 'utf8');
    expect(withWarningTable(text), 'run npm run docs:warnings').toBe(text);
    expect(text).toContain(renderWarningTable());
  });

  it('has one row per warning, the library ones then the emulator one', () => {
    const codes = [...renderWarningTable().matchAll(/^\| `(OTPLESS_[A-Z_]+)` \|/gm)].map((m) => m[1]);
    expect(codes).toEqual([...Object.keys(WARNINGS), ...Object.keys(EMULATOR_WARNINGS)]);
  });
});

describe('every warning goes through the table', () => {
  const files = sources();

  it('each code of the table is emitted somewhere, through warnOnce', () => {
    const emitted = new Set(
      files.flatMap(({ text }) => [...text.matchAll(/warnOnce\('(OTPLESS_[A-Z_]+)'/g)].map((m) => m[1])),
    );
    expect([...emitted].sort()).toEqual(Object.keys(WARNINGS).sort());
  });

  it('no module but the table (and the emulator, which imports none of it) calls process.emitWarning', () => {
    const callers = files.filter(({ text }) => text.includes('process.emitWarning(')).map(({ path }) => path);
    expect(callers.sort()).toEqual(['emulator/server.ts', 'errors/warnings.ts']);
    const emulator = files.find(({ path }) => path === 'emulator/server.ts')!.text;
    for (const code of Object.keys(EMULATOR_WARNINGS)) expect(emulator).toContain(`'${code}'`);
  });
});

describe('warnOnce', () => {
  it("once per code, with the package's type, the code, and the table's words", async () => {
    const warnings: Error[] = [];
    const listen = (w: Error) => warnings.push(w);
    process.on('warning', listen);
    try {
      expect(warnOnce('OTPLESS_ORIGIN_DIFFERS', 'http://localhost:3000', 'http://127.0.0.1:3000')).toBe(true);
      expect(warnOnce('OTPLESS_ORIGIN_DIFFERS', 'http://a.example', 'http://b.example')).toBe(false);
      expect(warnOnce('OTPLESS_BINDING_FAILED')).toBe(true);
      await new Promise((resolve) => setImmediate(resolve)); // warnings are emitted on the next tick
    } finally {
      process.off('warning', listen);
    }
    expect(warnings.map((w) => [w.name, (w as Error & { code?: string }).code])).toEqual([
      ['PassportOtplessWarning', 'OTPLESS_ORIGIN_DIFFERS'],
      ['PassportOtplessWarning', 'OTPLESS_BINDING_FAILED'],
    ]);
    expect(warnings[0]!.message).toBe(
      WARNINGS.OTPLESS_ORIGIN_DIFFERS.message('http://localhost:3000', 'http://127.0.0.1:3000'),
    );
    expect(warnings[0]!.message).toMatch(
      /from http:\/\/localhost:3000, but links return to http:\/\/127\.0\.0\.1:3000/,
    );
    expect(warnings[1]!.message).toBe(WARNINGS.OTPLESS_BINDING_FAILED.message());
  });
});
