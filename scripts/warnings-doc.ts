/**
 * Rewrites docs/codes.md's table of operator warnings from src/errors/warnings.ts
 * (`npm run docs:warnings`). test/errors/warnings.test.ts fails until this has run after the
 * table changed.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { WARNINGS_DOC, withWarningTable } from './lib/warningDocs.js';

const before = readFileSync(WARNINGS_DOC, 'utf8');
const after = withWarningTable(before);
if (after !== before) {
  writeFileSync(WARNINGS_DOC, after);
  console.log(`${WARNINGS_DOC}: warnings rewritten`);
}
