import { describe, expect, it } from 'vitest';
import type { OptionEntry } from '../../src/options/table.js';
import { REQUIRE_SERVICE_SESSION_OPTIONS } from '../../src/guards/requireServiceSession.js';
import { SESSION_COMPAT_OPTIONS } from '../../src/session/sessionCompat.js';
import { MEMORY_FLOW_STORE_OPTIONS } from '../../src/stores/memory.js';
import { REDIS_FLOW_STORE_OPTIONS } from '../../src/stores/redis.js';
import { OPTION_DOCS } from '../../scripts/lib/optionDocs.js';

// Every table of the package: those the docs render, and those with no reference table yet.
const TABLES: [string, Readonly<Record<string, OptionEntry>>][] = [
  ...OPTION_DOCS.map((doc): [string, Readonly<Record<string, OptionEntry>>] => [doc.id, doc.table]),
  ['requireServiceSession', REQUIRE_SERVICE_SESSION_OPTIONS],
  ['sessionCompat', SESSION_COMPAT_OPTIONS],
  ['MemoryFlowStore', MEMORY_FLOW_STORE_OPTIONS],
  ['RedisFlowStore', REDIS_FLOW_STORE_OPTIONS],
];

describe('the option tables', () => {
  for (const [owner, table] of TABLES) {
    it(`${owner}: every default passes its own check, and every option has a doc line`, () => {
      const entries = Object.entries(table);
      expect(entries.length).toBeGreaterThan(0);
      for (const [name, entry] of entries) {
        expect(entry.doc.trim(), `${owner}.${name}`).not.toBe('');
        if (entry.default !== undefined && entry.check !== undefined) {
          expect(() => entry.check!(entry.default, owner, name), `${owner}.${name}`).not.toThrow();
        }
      }
    });
  }

  it("a table entry's check throws in the package's one format", () => {
    const check = MEMORY_FLOW_STORE_OPTIONS.maxEntries.check;
    expect(() => check(0, 'MemoryFlowStore', 'maxEntries')).toThrow(
      'MemoryFlowStore: options.maxEntries must be a whole number from 1 to 10000000',
    );
  });
});
