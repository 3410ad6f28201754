// The generated Unicode tables (src/contact/uts39Data.ts) are what the generator makes of the
// committed published files (scripts/data/), and those files are of the current release.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { GENERATED, readSources } from '../../scripts/generate-confusables.js';
import { uts39Module, versionOf } from '../../scripts/lib/uts39Tables.js';
import { isAllowed, scriptsOf, SCRIPT, skeleton, UNICODE_VERSION } from '../../src/contact/confusable.js';

describe('src/contact/uts39Data.ts', () => {
  const sources = readSources();

  it('is what scripts/generate-confusables.ts makes of scripts/data/ (run npm run generate:confusables)', () => {
    expect(readFileSync(GENERATED, 'utf8')).toBe(uts39Module(sources));
  });

  it('is of Unicode 17.0.0, as every source file says in its header', () => {
    expect(UNICODE_VERSION).toBe('17.0.0');
    for (const text of [sources.confusables, sources.identifierStatus, sources.scripts, sources.scriptExtensions])
      expect(versionOf(text)).toBe('17.0.0');
  });

  it('refuses source files of different releases', () => {
    const older = sources.confusables.replace('# Version: 17.0.0', '# Version: 10.0.0');
    expect(() => uts39Module({ ...sources, confusables: older })).toThrow(/different versions/);
  });

  it('reads back as the files say: prototypes, scripts, identifier status', () => {
    // confusables.txt 17.0: 0192 ; 0066 (ƒ → f), 04CF ; 006C (ӏ → l), 006D ; 0072 006E (m → rn).
    expect(skeleton('ƒ')).toBe('f');
    expect(skeleton('ӏ')).toBe('l');
    expect(skeleton('m')).toBe('rn');
    // Scripts.txt and ScriptExtensions.txt: 0430 Cyrillic; 30FC Hiragana Katakana; 0041 Latin.
    expect(scriptsOf(0x0430)).toBe(SCRIPT.Cyrillic);
    expect(scriptsOf(0x30fc)).toBe(SCRIPT.Hiragana! | SCRIPT.Katakana!);
    expect(scriptsOf(0x41)).toBe(SCRIPT.Latin);
    expect(scriptsOf(0x13a0)).toBe(0); // Cherokee: no recommended script
    // IdentifierStatus.txt: 0061..007A, 018E..0192 (ƒ), 00B7 Allowed; 13A0 (Cherokee), 0138 not.
    expect(isAllowed(0x61)).toBe(true);
    expect(isAllowed(0x192)).toBe(true);
    expect(isAllowed(0x138)).toBe(false);
    expect(isAllowed(0xb7)).toBe(true);
    expect(isAllowed(0x13a0)).toBe(false);
  });
});
