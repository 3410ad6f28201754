import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// What importing the package's root entry loads before any of it runs: the packages its built
// files import statically, following its chunks. The heavy ones (undici's root entry with
// fetch and WebSocket, every country's phone metadata, UTS #46, the confusables table) are
// loaded on first use instead (src/client/agent.ts, src/lazyModule.ts); a static import of
// one of them would put megabytes on every app's heap at start (docs/performance.md).
const dist = fileURLToPath(new URL('../../dist/', import.meta.url));

/** Every specifier imported statically (`import ... from`, `import "..."`) by a built file. */
function staticImports(file: string): string[] {
  const text = readFileSync(join(dist, file), 'utf8');
  return [...text.matchAll(/^import\s+(?:[^'"]*?\s+from\s+)?["']([^"']+)["'];?$/gm)].map((m) => m[1]!);
}

/** The packages the entry's files import, following its own chunks (ES build). */
function packagesLoadedBy(entry: string): string[] {
  const seen = new Set<string>();
  const packages = new Set<string>();
  const visit = (file: string): void => {
    if (seen.has(file)) return;
    seen.add(file);
    for (const specifier of staticImports(file)) {
      if (specifier.startsWith('./')) visit(specifier.slice(2));
      else packages.add(specifier.replace(/^node:/, ''));
    }
  };
  visit(entry);
  return [...packages].sort();
}

describe("the root entry's static imports (dist/index.js and its chunks)", () => {
  it('are Node built-ins and passport-strategy only (undici’s Agent and request are required by path)', () => {
    expect(packagesLoadedBy('index.js')).toEqual([
      'crypto',
      'diagnostics_channel',
      'module',
      'net',
      'passport-strategy',
    ]);
  });

  it('are not the emulator’s: its own entry imports what only it needs', () => {
    expect(packagesLoadedBy('emulator.js')).toEqual(expect.arrayContaining(['http', 'libphonenumber-js/max']));
    expect(packagesLoadedBy('index.js')).not.toContain('http');
  });
});
