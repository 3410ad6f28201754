// Checks the package as it would be published: packs it once (without building again), runs
// publint and attw on that tarball, checks what it says of itself (its docs link only to what
// it holds or to the repository by absolute URL, the maintainers' pages stay out, its version
// names the CHANGELOG's newest section), then that every entry point loads under require and
// import, that both CLIs answer --help, and that consumers compile against the packed
// declarations (scripts/check-types.mjs). Run after `npm run build`. Exits non-zero on the
// first failure.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { brokenLinks, MAINTAINER_DOCS, versionMismatch } from './lib/packageTruth.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const run = (cmd, args) => {
  console.log(`$ ${cmd} ${args.join(' ')}`);
  execFileSync(cmd, args, { stdio: 'inherit', cwd: root });
};

const dir = mkdtempSync(join(tmpdir(), 'passport-otpless-package-'));
try {
  // --ignore-scripts: dist/ is built already; prepack would build it a second time.
  const [packed] = JSON.parse(
    execFileSync('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', dir], {
      cwd: root,
      encoding: 'utf8',
    }),
  );
  const tarball = join(dir, packed.filename);
  run('npx', ['--no-install', 'publint', '--strict', tarball]);
  // node16 profile: the package requires Node >= 20, whose resolver reads `exports`
  // (the node10 resolver does not, and cannot see the ./emulator subpath).
  run('npx', ['--no-install', 'attw', tarball, '--profile', 'node16']);
  execFileSync('tar', ['-xzf', tarball, '-C', dir]);
  checkPackageTruth(join(dir, 'package'), packed);
} finally {
  rmSync(dir, { recursive: true, force: true });
}

/** The tarball's docs, files and version tell the truth about it (see scripts/lib/packageTruth.mjs). */
function checkPackageTruth(unpacked, packed) {
  const shipped = packed.files.map((file) => file.path);
  const problems = [];
  const kept = MAINTAINER_DOCS.filter((doc) => shipped.includes(doc));
  if (kept.length) problems.push(`maintainer docs in the package: ${kept.join(', ')} (exclude them in "files")`);
  const docs = new Map(
    shipped.filter((file) => file.endsWith('.md')).map((file) => [file, readFileSync(join(unpacked, file), 'utf8')]),
  );
  const pkg = JSON.parse(readFileSync(join(unpacked, 'package.json'), 'utf8'));
  const repository = {
    url: pkg.repository.url.replace(/^git\+/, '').replace(/\.git$/, ''),
    files: execFileSync('git', ['ls-files'], { cwd: root, encoding: 'utf8' }).split('\n').filter(Boolean),
    read: (path) => readFileSync(join(root, path), 'utf8'),
  };
  for (const { file, target, why } of brokenLinks(docs, shipped, repository))
    problems.push(`${file}: ${target}: ${why}`);
  const mismatch = versionMismatch(pkg.version, docs.get('CHANGELOG.md') ?? '');
  if (mismatch) problems.push(mismatch);
  // V8 keeps a script's source in memory for its life, as two bytes a character when any one of
  // them is past U+00FF: one Hindi comment doubled the root chunk's share of the import heap.
  // esbuild escapes non-ASCII in strings; comments it keeps as written.
  for (const file of shipped.filter((f) => /^dist\/.*\.c?js$/.test(f))) {
    const line = readFileSync(join(unpacked, file), 'utf8')
      .split('\n')
      .findIndex((text) => /[^\t\n\r\x20-\x7e]/.test(text));
    if (line >= 0) problems.push(`${file}:${line + 1}: a non-ASCII character (keep comments in src/ ASCII)`);
  }
  if (problems.length) throw new Error(`the package does not tell the truth about itself:\n- ${problems.join('\n- ')}`);
  console.log(`package truth: ok (${packed.filename}, ${docs.size} docs, every link resolves)`);
}

const require = createRequire(import.meta.url);
const expectExports = (label, mod, names) => {
  const missing = names.filter((n) => mod[n] === undefined);
  if (missing.length) throw new Error(`${label} is missing ${missing.join(', ')}`);
  console.log(`${label}: ok (${names.join(', ')})`);
};
const main = [
  'MagicLinkStrategy',
  'sessionCompat',
  'requireLowRisk',
  'requireIdentity',
  'assessRisk',
  'OtplessError',
  'isOtplessError',
];
expectExports('require(passport-otpless)', require('passport-otpless'), main);
expectExports('import(passport-otpless)', await import('passport-otpless'), main);
const client = ['OtplessClient', 'OtplessApiError', 'OtplessError', 'isOtplessError', 'ENDPOINTS'];
expectExports('require(passport-otpless/client)', require('passport-otpless/client'), client);
expectExports('import(passport-otpless/client)', await import('passport-otpless/client'), client);
const errorClasses = [
  'OtplessError',
  'OtplessInputError',
  'OtplessApiError',
  'OtplessTimeoutError',
  'OtplessNetworkError',
  'OtplessResponseError',
  'OtplessStateError',
  'OtplessSetupError',
  'OtplessRequestError',
  'isOtplessError',
];
expectExports('require(passport-otpless/errors)', require('passport-otpless/errors'), errorClasses);
expectExports('import(passport-otpless/errors)', await import('passport-otpless/errors'), errorClasses);
// One class behind every subpath of a build: an error the strategy throws is the client's class.
const errorsEntry = await import('passport-otpless/errors');
if ((await import('passport-otpless')).OtplessError !== errorsEntry.OtplessError)
  throw new Error('passport-otpless and passport-otpless/errors hold two copies of OtplessError');
if ((await import('passport-otpless/client')).OtplessError !== errorsEntry.OtplessError)
  throw new Error('passport-otpless/client and passport-otpless/errors hold two copies of OtplessError');
// Across the two builds (two copies of each class), instanceof still holds, by the class's brand.
if (
  !(
    new (require('passport-otpless/errors').OtplessTimeoutError)('verifyCode', 1) instanceof
    errorsEntry.OtplessTimeoutError
  )
)
  throw new Error('an error of the CommonJS build is not instanceof its ESM class');
console.log('one error class per build, instanceof across the builds: ok');
expectExports('require(passport-otpless/emulator)', require('passport-otpless/emulator'), ['startEmulator']);
expectExports('import(passport-otpless/emulator)', await import('passport-otpless/emulator'), ['startEmulator']);

// The NestJS entry (its @nestjs/* peers are devDependencies here); the root must never load them.
const nest = ['OtplessModule', 'OtplessExceptionFilter', 'LowRiskGuard', 'IdentityGuard'];
expectExports('require(passport-otpless/nest)', require('passport-otpless/nest'), nest);
expectExports('import(passport-otpless/nest)', await import('passport-otpless/nest'), nest);
for (const file of ['dist/index.js', 'dist/index.cjs', 'dist/client.js', 'dist/errors.js', 'dist/emulator.js']) {
  if (readFileSync(file, 'utf8').includes('@nestjs/')) throw new Error(`${file} imports @nestjs/*`);
}
console.log('the root, /client, /errors and /emulator import no @nestjs/*: ok');

const help = execFileSync(process.execPath, ['dist/cli.js', '--help'], { encoding: 'utf8' });
if (!/otpless-emulator/.test(help)) throw new Error('otpless-emulator --help printed no usage');
console.log('otpless-emulator --help: ok');

const checkHelp = execFileSync(process.execPath, ['dist/check.js', '--help'], { encoding: 'utf8' });
if (!/otpless-check/.test(checkHelp)) throw new Error('otpless-check --help printed no usage');
console.log('otpless-check --help: ok');
// The declarations under tsc --strict without skipLibCheck, for each @types/node major.
run(process.execPath, ['scripts/check-types.mjs']);
console.log('package checks passed');
