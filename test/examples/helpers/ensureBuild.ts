import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  unlinkSync,
  writeFileSync,
} from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';

/**
 * The examples import the package by its own name (`passport-otpless`, resolved through
 * package.json `exports` to dist/), exactly as the demo and an app would. Before the tests
 * import them, dist/ must match src/.
 *
 * - Fresh when a stamp holds the hash of the build inputs (src/, package.json, tsup and TS
 *   configs) of the last build made here, or when dist/ is newer than every input (built by
 *   `npm run build` or `npm pack`). Checking costs a few milliseconds.
 * - Otherwise tsup builds into a private folder and the files are moved into dist/ one by one
 *   (a rename each): a failed build leaves dist/ as it was, and a reader never sees dist/
 *   emptied by tsup's `clean`. A lock folder lets one test process build while others wait.
 */
const ROOT = join(dirname(fileURLToPath(import.meta.url)), '../../..');
const DIST = join(ROOT, 'dist');
const CACHE = join(ROOT, 'node_modules/.cache/passport-otpless-examples');
const STAMP = join(CACHE, 'build-stamp.txt');
const LOCK = join(CACHE, 'build.lock');
const INPUTS = ['src', 'package.json', 'tsup.config.ts', 'tsconfig.json'];
const OUTPUTS = [
  'index.js',
  'index.cjs',
  'index.d.ts',
  'emulator.js',
  'emulator.cjs',
  'emulator.d.ts',
  'cli.js',
  'check.js',
];
const LOCK_STALE_MS = 180_000;

/** Builds dist/ when it does not match the sources; resolves once it does. */
export async function ensureBuilt(): Promise<void> {
  if (isFresh(inputHash())) return;
  mkdirSync(CACHE, { recursive: true });
  await withLock(async () => {
    const hash = inputHash();
    // Another process may have built while this one waited for the lock.
    if (isFresh(hash)) return;
    build();
    writeFileSync(STAMP, hash);
  });
}

function isFresh(hash: string): boolean {
  if (!OUTPUTS.every((file) => existsSync(join(DIST, file)))) return false;
  if (existsSync(STAMP) && readFileSync(STAMP, 'utf8') === hash) return true;
  // Built by someone else (npm run build, npm pack) after the last change of any input.
  const built = Math.min(...OUTPUTS.map((file) => statSync(join(DIST, file)).mtimeMs));
  if (built < newestInputTime()) return false;
  mkdirSync(CACHE, { recursive: true });
  writeFileSync(STAMP, hash);
  return true;
}

function inputFiles(): string[] {
  const files: string[] = [];
  const walk = (path: string): void => {
    if (!existsSync(path)) return;
    if (statSync(path).isDirectory()) {
      for (const name of readdirSync(path).sort()) walk(join(path, name));
    } else {
      files.push(path);
    }
  };
  for (const input of INPUTS) walk(join(ROOT, input));
  return files;
}

function inputHash(): string {
  const hash = createHash('sha256');
  for (const file of inputFiles())
    hash.update(relative(ROOT, file)).update('\0').update(readFileSync(file)).update('\0');
  return hash.digest('hex');
}

function newestInputTime(): number {
  return Math.max(...inputFiles().map((file) => statSync(file).mtimeMs));
}

function build(): void {
  const out = join(CACHE, `out-${process.pid}`);
  rmSync(out, { recursive: true, force: true });
  const tsup = join(ROOT, 'node_modules/.bin/tsup');
  const result = spawnSync(tsup, ['--out-dir', out], { cwd: ROOT, encoding: 'utf8', timeout: 170_000 });
  if (result.status !== 0) {
    rmSync(out, { recursive: true, force: true });
    const output = `${result.stdout ?? ''}${result.stderr ?? ''}`.split('\n').slice(-30).join('\n');
    throw new Error(`The examples need dist/, and building it failed (dist/ was left as it was):\n${output}`);
  }
  mkdirSync(DIST, { recursive: true });
  const built = new Set(readdirSync(out));
  for (const name of built) renameSync(join(out, name), join(DIST, name));
  // What tsup's `clean` would have removed: outputs of an older build (hash-named chunks).
  for (const name of readdirSync(DIST)) if (!built.has(name)) unlinkSync(join(DIST, name));
  rmSync(out, { recursive: true, force: true });
}

async function withLock(work: () => Promise<void>): Promise<void> {
  const deadline = Date.now() + LOCK_STALE_MS;
  for (;;) {
    try {
      mkdirSync(LOCK);
      break;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      // A lock left by a killed process: take it over once it is clearly too old.
      const lock = statSync(LOCK, { throwIfNoEntry: false });
      if (lock && Date.now() - lock.mtimeMs > LOCK_STALE_MS) rmSync(LOCK, { recursive: true, force: true });
      if (Date.now() > deadline)
        throw new Error(`Timed out waiting for another process to build dist/ (lock ${LOCK})`, { cause: err });
      await sleep(200);
    }
  }
  try {
    await work();
  } finally {
    rmSync(LOCK, { recursive: true, force: true });
  }
}
