import { execFileSync, spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import ts from 'typescript';

/**
 * A new folder as a person makes one for the Quick start: the packed package installed in its
 * node_modules (`npm pack` of this checkout, unpacked as `npm install <tgz>` would), and the
 * other packages it needs (express, passport, tsx, the @types ...) linked from this checkout's
 * node_modules, so nothing is fetched from a registry. Snippets are written and run there, and
 * import `passport-otpless` by its name, through the tarball's `exports`.
 */
export interface FreshFolder {
  dir: string;
  /** Writes a snippet as `<name>.mts` and returns its path. */
  write(name: string, code: string): string;
  remove(): void;
}

/** Packs the package (dist/ must be built: the vitest global setup does it) into a new folder. */
export function freshFolder(root: string): FreshFolder {
  const dir = mkdtempSync(join(tmpdir(), 'passport-otpless-readme-'));
  // --ignore-scripts: pack what dist/ holds, without building it again.
  const [packed] = JSON.parse(
    execFileSync('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', dir], {
      cwd: root,
      encoding: 'utf8',
    }),
  ) as Array<{ filename: string }>;
  const modules = join(dir, 'node_modules');
  const target = join(modules, 'passport-otpless');
  mkdirSync(target, { recursive: true });
  execFileSync('tar', ['-xzf', join(dir, packed!.filename), '-C', target, '--strip-components=1']);
  const installed = realpathSync(join(root, 'node_modules'));
  for (const name of readdirSync(installed)) {
    if (name === 'passport-otpless' || name.startsWith('.')) continue;
    symlinkSync(join(installed, name), join(modules, name));
  }
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ private: true, type: 'module' }));
  return {
    dir,
    write(name, code) {
      const file = join(dir, `${name}.mts`);
      writeFileSync(file, code);
      return file;
    },
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}

/**
 * The compiler options a careful app uses: `strict` and the checks beside it.
 * `exactOptionalPropertyTypes` joins once the shipped request types accept Express's
 * `req.res?: Response` under it (scripts/check-types.mjs compiles consumers with it).
 */
export const STRICT_OPTIONS: ts.CompilerOptions = {
  target: ts.ScriptTarget.ES2022,
  lib: ['lib.es2022.d.ts'],
  module: ts.ModuleKind.NodeNext,
  moduleResolution: ts.ModuleResolutionKind.NodeNext,
  strict: true,
  noUncheckedIndexedAccess: true,
  exactOptionalPropertyTypes: true,
  noImplicitReturns: true,
  noImplicitOverride: true,
  noFallthroughCasesInSwitch: true,
  noUnusedLocals: true,
  esModuleInterop: true,
  isolatedModules: true,
  skipLibCheck: true,
  types: ['node'],
  noEmit: true,
};

/** Type errors of `files` (in `dir`), as `file:line message`. */
export function typeErrors(dir: string, files: string[], options: ts.CompilerOptions): string[] {
  const program = ts.createProgram(files, { ...options, typeRoots: [join(dir, 'node_modules/@types')] });
  return ts
    .getPreEmitDiagnostics(program)
    .filter((d) => d.file && files.includes(d.file.fileName))
    .map((d) => {
      const { line } = d.file!.getLineAndCharacterOfPosition(d.start ?? 0);
      return `${d.file!.fileName.split('/').pop()}:${line + 1} ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`;
    });
}

/** A snippet running as `npx tsx <file>` would run it, on a free port. */
export interface RunningSnippet {
  /** The app, as the snippet's `callbackUrl` names it. */
  url: string;
  /** The dev inbox the snippet printed (the emulator's auth host). */
  inbox: string;
  /** Everything it printed so far (stdout and stderr). */
  output(): string;
  stop(): void;
}

/** Starts `file` with `PORT` set and waits until it prints `dev inbox: <url>`. */
export async function runSnippet(dir: string, file: string): Promise<RunningSnippet> {
  const port = await freePort();
  const env: NodeJS.ProcessEnv = { ...process.env, PORT: String(port) };
  // Without credentials the snippets use the emulator, as in a new folder.
  delete env.OTPLESS_CLIENT_ID;
  delete env.OTPLESS_CLIENT_SECRET;
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', file], {
    cwd: dir,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  const inbox = await new Promise<string>((resolve, reject) => {
    const onData = (chunk: Buffer): void => {
      out += chunk.toString();
      const m = /dev inbox: (http:\/\/\S+)/.exec(out);
      if (m) resolve(m[1]!);
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.once('exit', (code) => reject(new Error(`the snippet exited (${code}) before it listened:\n${out}`)));
  });
  return {
    url: `http://127.0.0.1:${port}`,
    inbox,
    output: () => out,
    stop: () => void child.kill('SIGTERM'),
  };
}

/** Runs `file` with `PORT` set to `port` until it exits by itself: its exit code and output. */
export function runSnippetToExit(
  dir: string,
  file: string,
  port: number,
): Promise<{ code: number | null; output: string }> {
  const env: NodeJS.ProcessEnv = { ...process.env, PORT: String(port) };
  delete env.OTPLESS_CLIENT_ID;
  delete env.OTPLESS_CLIENT_SECRET;
  const child = spawn(process.execPath, ['--import', 'tsx', file], {
    cwd: dir,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  return new Promise((resolve) => child.once('exit', (code) => resolve({ code, output })));
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}
