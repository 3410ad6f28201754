/**
 * Rewrites the option references of the docs from the option tables (`npm run docs:options`).
 * test/options/docs.test.ts fails until this has run after a table changed.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { OPTION_DOCS, withOptionTable } from './lib/optionDocs.js';

for (const doc of OPTION_DOCS) {
  const before = readFileSync(doc.file, 'utf8');
  const after = withOptionTable(before, doc);
  if (after !== before) {
    writeFileSync(doc.file, after);
    console.log(`${doc.file}: options:${doc.id} rewritten`);
  }
}
