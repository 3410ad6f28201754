/**
 * Writes src/contact/uts39Data.ts from the published files in scripts/data/ (npm run
 * generate:confusables). To move to a new Unicode release, put its confusables.txt and
 * IdentifierStatus.txt (https://www.unicode.org/Public/security/<version>/) and Scripts.txt and
 * ScriptExtensions.txt (https://www.unicode.org/Public/<version>/ucd/) in
 * scripts/data/unicode-<version>/, point UNICODE_DATA below at it and run this; the generated
 * file names the version. test/contact/uts39Data.test.ts runs the same transform on the same
 * files and fails when they disagree.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { uts39Module, type Uts39Sources } from './lib/uts39Tables.js';

/** The folder of the current release's files. */
export const UNICODE_DATA = new URL('./data/unicode-17.0.0/', import.meta.url);
const CHROMIUM_DATA = new URL('./data/chromium/', import.meta.url);
export const GENERATED = new URL('../src/contact/uts39Data.ts', import.meta.url);

/** The committed source files, read as text. */
export function readSources(): Uts39Sources {
  const read = (base: URL, name: string) => readFileSync(new URL(name, base), 'utf8');
  return {
    confusables: read(UNICODE_DATA, 'confusables.txt'),
    identifierStatus: read(UNICODE_DATA, 'IdentifierStatus.txt'),
    scripts: read(UNICODE_DATA, 'Scripts.txt'),
    scriptExtensions: read(UNICODE_DATA, 'ScriptExtensions.txt'),
    topDomains: read(CHROMIUM_DATA, 'top-bucket-domains.list'),
  };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const text = uts39Module(readSources());
  writeFileSync(GENERATED, text);
  console.log(`${fileURLToPath(GENERATED)}: ${text.length} characters`);
}
