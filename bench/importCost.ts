/**
 * What importing the package's root entry costs, for two builds side by side: the heap after
 * `import('passport-otpless')` and two full GCs in a fresh `node --expose-gc` (minus the same
 * process's heap before the import), and the wall time of `node -e "import('passport-otpless')"`.
 * Each build is copied into its own directory where `passport-otpless` resolves to it by name
 * (its dependencies from this checkout's node_modules); the runs alternate between the builds,
 * the order swapped every round, so load on the machine falls on both alike.
 *
 * Run: npx tsx bench/importCost.ts <before-dist> <after-dist> [runs=20]
 */
import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { median } from './support/stats.js';

const MB = 1024 * 1024;
const root = resolve(import.meta.dirname, '..');

/** A directory holding node_modules/passport-otpless with this package.json and the given dist. */
function stage(dist: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'import-cost-'));
  const pkg = join(dir, 'node_modules', 'passport-otpless');
  mkdirSync(pkg, { recursive: true });
  writeFileSync(join(pkg, 'package.json'), readFileSync(join(root, 'package.json')));
  // A copy, not a link: Node resolves a linked file's imports from where the link points.
  cpSync(resolve(dist), join(pkg, 'dist'), { recursive: true });
  symlinkSync(join(root, 'node_modules'), join(pkg, 'node_modules'), 'dir');
  return dir;
}

const HEAP_PROBE = `
const settle = () => { gc(); gc(); return process.memoryUsage().heapUsed; };
const before = settle();
await import('passport-otpless');
const after = settle();
console.log(JSON.stringify({ before, after }));
`;

/** Heap added by the import, after two full GCs (bytes), and the process's heap before it. */
function heapOf(dir: string): { added: number; base: number } {
  const out = spawnSync(process.execPath, ['--expose-gc', '--input-type=module', '-e', HEAP_PROBE], {
    cwd: dir,
    encoding: 'utf8',
  });
  if (out.status !== 0) throw new Error(`heap probe failed: ${out.stderr}`);
  const { before, after } = JSON.parse(out.stdout) as { before: number; after: number };
  return { added: after - before, base: before };
}

/** Wall time of the whole `node -e "<code>"` process (ms), by default the import. */
function wallOf(dir: string, code = "import('passport-otpless')"): number {
  const started = performance.now();
  const out = spawnSync(process.execPath, ['-e', code], { cwd: dir, encoding: 'utf8' });
  const ms = performance.now() - started;
  if (out.status !== 0) throw new Error(`import failed: ${out.stderr}`);
  return ms;
}

interface Samples {
  heapMB: number[];
  baseMB: number[];
  wallMs: number[];
}

function summary(values: number[], digits: number): string {
  const sorted = [...values].sort((a, b) => a - b);
  const f = (v: number) => v.toFixed(digits);
  return `${f(median(values))} (${f(sorted[0] as number)}-${f(sorted.at(-1) as number)})`;
}

const [beforeDist, afterDist, runsArg] = process.argv.slice(2);
if (!beforeDist || !afterDist) throw new Error('usage: tsx bench/importCost.ts <before-dist> <after-dist> [runs]');
const runs = Number(runsArg ?? 20);
const builds = { before: stage(beforeDist), after: stage(afterDist) };
const samples: Record<keyof typeof builds, Samples> = {
  before: { heapMB: [], baseMB: [], wallMs: [] },
  after: { heapMB: [], baseMB: [], wallMs: [] },
};
const bareMs: number[] = [];
const [loadBefore = 0] = loadavg();
try {
  for (let i = 0; i < runs; i++) {
    const order: (keyof typeof builds)[] = i % 2 === 0 ? ['before', 'after'] : ['after', 'before'];
    for (const name of order) {
      const heap = heapOf(builds[name]);
      samples[name].heapMB.push(heap.added / MB);
      samples[name].baseMB.push(heap.base / MB);
      samples[name].wallMs.push(wallOf(builds[name]));
    }
    // Node itself, importing nothing: what every run above pays before the import.
    bareMs.push(wallOf(builds.before, '0'));
  }
} finally {
  for (const dir of Object.values(builds)) rmSync(dir, { recursive: true, force: true });
}
const [loadAfter = 0] = loadavg();
console.log(
  `Node ${process.version}, ${runs} runs each, alternated; load ${loadBefore.toFixed(2)} -> ${loadAfter.toFixed(2)}`,
);
console.log(
  '| build | heap added by the import, MB: median (range) | wall ms of node -e "import(...)": median (range) |',
);
console.log('|---|---|---|');
for (const name of ['before', 'after'] as const) {
  const s = samples[name];
  console.log(`| ${name} | ${summary(s.heapMB, 2)} | ${summary(s.wallMs, 0)} |`);
}
console.log(`| nothing (\`node -e "0"\`) | - | ${summary(bareMs, 0)} |`);
console.log(`(heap of the process before the import: ${summary(samples.before.baseMB, 2)} MB)`);
