import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import {
  INTERFACE_DOCS,
  OPTION_DOCS,
  renderOptionTable,
  withInterfaceDocs,
  withOptionTable,
} from '../../scripts/lib/optionDocs.js';

// The docs' option references are rendered from the option tables: a doc that differs from its
// table (an option added, a default changed, and `npm run docs:options` not run) fails here.
const root = fileURLToPath(new URL('../..', import.meta.url));

describe('the docs option references and the option tables agree', () => {
  for (const doc of OPTION_DOCS) {
    it(`${doc.file} shows ${doc.id}'s table as rendered from it`, () => {
      const text = readFileSync(join(root, doc.file), 'utf8');
      expect(withOptionTable(text, doc), 'run npm run docs:options').toBe(text);
    });

    it(`${doc.file}'s ${doc.id} reference has one row per option, in the table's order`, () => {
      const text = readFileSync(join(root, doc.file), 'utf8');
      const region = text.slice(text.indexOf(`<!-- options:${doc.id}`), text.indexOf(`<!-- /options:${doc.id} -->`));
      const names = [...region.matchAll(/^\| `([A-Za-z.]+)` \|/gm)].map((m) => m[1]);
      expect(names).toEqual(Object.keys(doc.table));
    });
  }

  for (const doc of INTERFACE_DOCS) {
    it(`${doc.file}'s ${doc.name} describes each option in the words of its table`, () => {
      const text = readFileSync(join(root, doc.file), 'utf8');
      expect(withInterfaceDocs(text, doc), 'run npm run docs:options').toBe(text);
      // Every option the interface declares itself is in the table, so none keeps a comment of its own.
      const body = text.slice(
        text.indexOf(`export interface ${doc.name} `),
        text.indexOf('\n}\n', text.indexOf(`export interface ${doc.name} `)),
      );
      const declared = [...body.matchAll(/^ {2}(\w+)\??:/gm)].map((m) => m[1]!);
      expect(declared.length).toBeGreaterThan(0);
      expect(declared.filter((name) => !(name in doc.table))).toEqual([]);
    });
  }

  it('renders a default from the value when the entry has no default text, and none when it has neither', () => {
    const table = renderOptionTable({
      id: 'example',
      file: 'example.md',
      header: 'option',
      table: {
        mode: { default: 'fast', doc: 'the mode' },
        list: { default: [], doc: 'a list' },
        size: { default: 5, defaultDoc: '5 (small)', doc: 'the size' },
        hook: { doc: 'a hook' },
      },
    });
    expect(table.split('\n')).toEqual([
      '| option | default | what it does |',
      '|---|---|---|',
      "| `mode` | `'fast'` | the mode |",
      '| `list` | `[]` | a list |',
      '| `size` | 5 (small) | the size |',
      '| `hook` | none | a hook |',
    ]);
  });

  it('refuses a doc without the markers of its region', () => {
    const doc = OPTION_DOCS[0]!;
    expect(() => withOptionTable('# No table here\n', doc)).toThrow(
      `${doc.file} has no <!-- options:${doc.id} --> region`,
    );
  });
});
