/**
 * Rewrites the option references of the docs, and the comments of the options interfaces, from
 * the option tables (`npm run docs:options`).
 * test/options/docs.test.ts fails until this has run after a table changed.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { INTERFACE_DOCS, OPTION_DOCS, withInterfaceDocs, withOptionTable } from './lib/optionDocs.js';

for (const doc of OPTION_DOCS) {
  const before = readFileSync(doc.file, 'utf8');
  const after = withOptionTable(before, doc);
  if (after !== before) {
    writeFileSync(doc.file, after);
    console.log(`${doc.file}: options:${doc.id} rewritten`);
  }
}

// The options interfaces' member comments, from the same tables: an option is described once.
for (const doc of INTERFACE_DOCS) {
  const before = readFileSync(doc.file, 'utf8');
  const after = withInterfaceDocs(before, doc);
  if (after !== before) {
    writeFileSync(doc.file, after);
    console.log(`${doc.file}: ${doc.name}'s comments rewritten`);
  }
}
