// Checks the package as it would be published: publint and attw on the packed tarball, then
// that every entry point loads under require and import, that both CLIs answer --help, and that
// a consumer compiles against the packed declarations under each @types/node major.
// Run after `npm run build`. Exits non-zero on the first failure.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

const run = (cmd, args) => {
  console.log(`$ ${cmd} ${args.join(' ')}`);
  execFileSync(cmd, args, { stdio: 'inherit' });
};

run('npx', ['--no-install', 'publint', '--strict']);
// node16 profile: the package requires Node >= 20, whose resolver reads `exports`
// (the node10 resolver does not, and cannot see the ./emulator subpath).
run('npx', ['--no-install', 'attw', '--pack', '.', '--profile', 'node16']);

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
// One class behind both subpaths: an error the strategy throws is `instanceof` the client's class.
if ((await import('passport-otpless')).OtplessError !== (await import('passport-otpless/client')).OtplessError)
  throw new Error('passport-otpless and passport-otpless/client hold two copies of OtplessError');
expectExports('require(passport-otpless/emulator)', require('passport-otpless/emulator'), ['startEmulator']);
expectExports('import(passport-otpless/emulator)', await import('passport-otpless/emulator'), ['startEmulator']);

// The NestJS entry (its @nestjs/* peers are devDependencies here); the root must never load them.
const nest = ['OtplessModule', 'OtplessExceptionFilter', 'LowRiskGuard', 'IdentityGuard'];
expectExports('require(passport-otpless/nest)', require('passport-otpless/nest'), nest);
expectExports('import(passport-otpless/nest)', await import('passport-otpless/nest'), nest);
for (const file of ['dist/index.js', 'dist/index.cjs', 'dist/client.js', 'dist/emulator.js']) {
  if (readFileSync(file, 'utf8').includes('@nestjs/')) throw new Error(`${file} imports @nestjs/*`);
}
console.log('the root, /client and /emulator import no @nestjs/*: ok');

const help = execFileSync(process.execPath, ['dist/cli.js', '--help'], { encoding: 'utf8' });
if (!/otpless-emulator/.test(help)) throw new Error('otpless-emulator --help printed no usage');
console.log('otpless-emulator --help: ok');

const checkHelp = execFileSync(process.execPath, ['dist/check.js', '--help'], { encoding: 'utf8' });
if (!/otpless-check/.test(checkHelp)) throw new Error('otpless-check --help printed no usage');
console.log('otpless-check --help: ok');
// The declarations under tsc --strict without skipLibCheck, for each @types/node major.
run(process.execPath, ['scripts/check-types.mjs']);
console.log('package checks passed');
