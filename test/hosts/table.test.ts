import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { renderHostTable } from './table.js';

// docs/frameworks.md's host table is the suite's: the hosts and scenarios test/hosts runs.

describe('docs/frameworks.md host table', () => {
  it('is the table the conformance suite generates (run `npx tsx test/hosts/print-table.ts` to refresh)', () => {
    const doc = readFileSync(join(import.meta.dirname, '../../docs/frameworks.md'), 'utf8');
    const between = /<!-- hosts:begin -->\n([\s\S]*?)\n<!-- hosts:end -->/.exec(doc);
    expect(between, 'the table markers are missing').not.toBeNull();
    expect(between![1]).toBe(renderHostTable());
  });
});
