// Packs the package and compiles a consumer file against it with `tsc --strict` and without
// skipLibCheck, under each major of @types/node the package must work with (20, 22 and the
// newest): the shipped declarations must hold wherever an app's @types/node lands (npm gives
// @types/express the newest unless the app pins one). Installs into a temporary directory from
// the registry. Run after `npm run build`; exits non-zero on the first failure.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const tsc = join(root, 'node_modules/typescript/bin/tsc');
const majors = process.argv.slice(2).length ? process.argv.slice(2) : ['20', '22', 'latest'];

const dir = mkdtempSync(join(tmpdir(), 'passport-otpless-types-'));
const run = (cmd, args, cwd = dir) => {
  console.log(`$ ${cmd} ${args.join(' ')}`);
  execFileSync(cmd, args, { cwd, stdio: 'inherit' });
};

// What an app writes, from each entry point, for both module systems.
const consumer = `
import express from 'express';
import { MagicLinkStrategy, channels, isOtplessError, requireLowRisk, sessionCompat } from 'passport-otpless';
import type { MagicLinkProfile, ServiceCallContext } from 'passport-otpless';
import { OtplessClient } from 'passport-otpless/client';
import type { SecureInfo } from 'passport-otpless/client';
import { startEmulator } from 'passport-otpless/emulator';

export async function main(): Promise<void> {
const emulator = await startEmulator({ quiet: true });
const strategy = new MagicLinkStrategy(
  { clientId: 'id', clientSecret: 'secret', callbackUrl: 'http://127.0.0.1:3100/auth/callback', authUrl: emulator.authUrl },
  async (profile: MagicLinkProfile) => ({ id: profile.id }),
);
const app = express();
app.use(sessionCompat());
app.post('/auth/magic-link', express.json(), strategy.send());
app.get('/me', requireLowRisk(), (_req, res) => res.end());
channels.serviceCall.subscribe({
  start: (ctx: ServiceCallContext) => void ctx.endpoint,
  end: () => {},
  asyncStart: () => {},
  asyncEnd: () => {},
  error: () => {},
});
const client = new OtplessClient({ clientId: 'id', clientSecret: 'secret' });
const signals: SecureInfo | undefined = undefined;
try {
  await client.verifyCode('code');
} catch (err) {
  if (isOtplessError(err, 'API_ERROR')) console.log(err.status, signals);
}
await emulator.close();
}
`;

try {
  const packed = JSON.parse(
    execFileSync('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', dir], {
      cwd: root,
      encoding: 'utf8',
    }),
  );
  const tarball = join(dir, packed[0].filename);
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: 'module' }));
  writeFileSync(join(dir, 'consumer.mts'), consumer);
  writeFileSync(join(dir, 'consumer.cts'), consumer);
  writeFileSync(
    join(dir, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: {
        strict: true,
        skipLibCheck: false,
        noEmit: true,
        target: 'ES2022',
        module: 'NodeNext',
        moduleResolution: 'NodeNext',
        types: ['node'],
        esModuleInterop: true,
      },
      files: ['consumer.mts', 'consumer.cts'],
    }),
  );
  const quiet = ['--no-audit', '--no-fund', '--ignore-scripts', '--loglevel=error'];
  run('npm', ['install', ...quiet, tarball, 'express@5', '@types/express@5']);
  for (const major of majors) {
    run('npm', ['install', ...quiet, `@types/node@${major}`]);
    const version = JSON.parse(
      execFileSync('npm', ['ls', '@types/node', '--json', '--depth=0'], { cwd: dir, encoding: 'utf8' }),
    ).dependencies['@types/node'].version;
    run(process.execPath, [tsc, '-p', 'tsconfig.json']);
    console.log(`tsc --strict without skipLibCheck, @types/node ${version}: ok`);
  }
} finally {
  if (!process.env.KEEP_TYPES_DIR) rmSync(dir, { recursive: true, force: true });
  else console.log(`kept ${dir} (${readdirSync(dir).join(', ')})`);
}
