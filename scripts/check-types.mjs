// Packs the package and compiles consumers against it, as an app would:
// 1. `tsc --strict` without skipLibCheck, under each major of @types/node the package must work
//    with (20, 22 and the newest): the shipped declarations must hold wherever an app's
//    @types/node lands (npm gives @types/express the newest unless the app pins one).
// 2. @tsconfig/strictest (exactOptionalPropertyTypes among others), without skipLibCheck, on each
//    host the package supports: Express 5 and Express 4 (each with its own @types/express),
//    Connect, and Fastify with @fastify/passport.
// Installs into a temporary directory from the registry. Run after `npm run build`; exits
// non-zero on the first failure. Arguments, if any, replace the @types/node majors of step 1.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ERRORS_CONSUMER } from './lib/errorsConsumer.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const tsc = join(root, 'node_modules/typescript/bin/tsc');
const majors = process.argv.slice(2).length ? process.argv.slice(2) : ['20', '22', 'latest'];

const dir = mkdtempSync(join(tmpdir(), 'passport-otpless-types-'));
const run = (cmd, args, cwd) => {
  console.log(`$ ${cmd} ${args.join(' ')}`);
  execFileSync(cmd, args, { cwd, stdio: 'inherit' });
};

// What an app writes, from each entry point, for both module systems.
const entryPoints = `
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

const strategySetup = `
const strategy = new MagicLinkStrategy(
  { clientId: 'id', clientSecret: 'secret', callbackUrl: 'http://127.0.0.1:3100/auth/callback' },
  async (profile: MagicLinkProfile) => ({ id: profile.id }),
);
`;

// Express (4 or 5, whichever @types/express is installed): the README's and docs' routes.
const expressApp = `
import express from 'express';
import type { Request, Response } from 'express';
import cookieSession from 'cookie-session';
import session from 'express-session';
import passport from 'passport';
import { MagicLinkStrategy, requireIdentity, requireLowRisk, sessionCompat } from 'passport-otpless';
import type { GuardVerdict, MagicLinkProfile } from 'passport-otpless';

export function main(): express.Express {
${strategySetup}
passport.use(strategy);
passport.use('magic-link-2', strategy);
const withRequest = new MagicLinkStrategy(
  { clientId: 'id', clientSecret: 'secret', callbackUrl: 'http://127.0.0.1:3100/auth/callback', passReqToCallback: true },
  async (req, profile) => ({ id: profile.id, ip: req.socket.remoteAddress ?? null }),
);
passport.use('magic-link-req', withRequest);
const app = express();
app.use(cookieSession({ name: 'session', keys: ['key'] }));
app.use(sessionCompat({ secret: 'signals' }));
express().use(session({ secret: 'session', resave: false, saveUninitialized: false }));
app.use(passport.initialize());
app.use(passport.session());
app.post('/auth/magic-link', express.json(), strategy.send());
app.post('/auth/magic-link-form', express.urlencoded({ extended: false }), strategy.send({ failureRedirect: '/login' }));
app.get('/auth/status', strategy.status());
const callback = passport.authenticate('magic-link', { successRedirect: '/me', failureRedirect: '/login' });
app.route('/auth/callback').get(callback).post(express.urlencoded({ extended: false }), callback);
app.get('/me', requireLowRisk(), (req, res) => {
  const verdict: GuardVerdict | undefined = req.risk;
  res.json({ user: req.user, verdict });
});
app.use('/account', requireLowRisk({ loginUrl: '/login' }));
app.get('/sms', requireIdentity('MOBILE'), (_req, res) => res.end());
const stepUp = (_req: Request, res: Response, _next: unknown, verdict: GuardVerdict): void => {
  res.status(403).json({ action: verdict.action });
};
app.post('/transfer', requireLowRisk({ onChallenge: stepUp, onBlock: (_req, res) => res.end() }), (_req, res) => {
  res.end();
});
const router = express.Router();
router.post('/send', express.json(), strategy.send());
router.get('/guarded', requireLowRisk(), (_req, res) => res.end());
app.use(router);
return app;
}
`;

// Connect: Node's own middleware, no Express types.
const connectApp = `
import connect from 'connect';
import type { NextHandleFunction } from 'connect';
import { MagicLinkStrategy, requireIdentity, requireLowRisk, sessionCompat } from 'passport-otpless';
import type { MagicLinkProfile } from 'passport-otpless';

export function main(): connect.Server {
${strategySetup}
const app = connect();
app.use(sessionCompat());
app.use('/auth/magic-link', strategy.send());
app.use('/auth/status', strategy.status());
app.use('/payments', requireLowRisk());
app.use('/sms', requireIdentity('EMAIL', { loginUrl: '/login' }));
const guard: NextHandleFunction = requireLowRisk();
const send: NextHandleFunction = strategy.send({ failureRedirect: '/login' });
app.use(guard);
app.use(send);
return app;
}
`;

// Fastify 5 with @fastify/passport: handlers and preHandlers as they are.
const fastifyApp = `
import fastifyPassport from '@fastify/passport';
import Fastify from 'fastify';
import type { FastifyInstance } from 'fastify';
import { MagicLinkStrategy, otplessFastify, requireIdentity, requireLowRisk } from 'passport-otpless';
import type { MagicLinkProfile } from 'passport-otpless';

export async function main(): Promise<FastifyInstance> {
${strategySetup}
const app = Fastify();
await app.register(otplessFastify({ secret: 'signals' }));
await app.register(fastifyPassport.initialize());
await app.register(fastifyPassport.secureSession());
fastifyPassport.use(strategy.name, strategy);
fastifyPassport.use(strategy);
app.post('/x', strategy.send());
app.post('/auth/magic-link', strategy.send({ failureRedirect: '/login' }));
app.get('/auth/status', strategy.status());
const callback = { preValidation: fastifyPassport.authenticate('magic-link', { successRedirect: '/me' }) };
app.get('/auth/callback', callback, async () => ({}));
app.get('/payments', { preHandler: requireLowRisk() }, async () => ({ allowed: true }));
app.get('/sms', { preHandler: [requireIdentity('MOBILE'), requireLowRisk({ loginUrl: '/login' })] }, async () => ({}));
app.addHook('preHandler', requireLowRisk());
return app;
}
`;

const quiet = ['--no-audit', '--no-fund', '--ignore-scripts', '--loglevel=error'];
const compilerOptions = {
  noEmit: true,
  skipLibCheck: false,
  target: 'ES2022',
  module: 'NodeNext',
  moduleResolution: 'NodeNext',
  types: ['node'],
  esModuleInterop: true,
};

/** A consumer folder: the packed package, `deps`, and each file as .mts and .cts. */
function project(name, tarball, deps, files, tsconfig) {
  const cwd = join(dir, name);
  mkdirSync(cwd);
  writeFileSync(join(cwd, 'package.json'), JSON.stringify({ name: `consumer-${name}`, private: true, type: 'module' }));
  const names = [];
  for (const [file, text] of Object.entries(files)) {
    for (const ext of ['mts', 'cts']) {
      writeFileSync(join(cwd, `${file}.${ext}`), text);
      names.push(`${file}.${ext}`);
    }
  }
  writeFileSync(join(cwd, 'tsconfig.json'), JSON.stringify({ ...tsconfig, files: names }));
  run('npm', ['install', ...quiet, tarball, ...deps], cwd);
  return cwd;
}

const installed = (cwd, name) =>
  JSON.parse(execFileSync('npm', ['ls', name, '--json', '--depth=0'], { cwd, encoding: 'utf8' })).dependencies[name]
    .version;

try {
  const packed = JSON.parse(
    execFileSync('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', dir], {
      cwd: root,
      encoding: 'utf8',
    }),
  );
  const tarball = join(dir, packed[0].filename);

  // 1. --strict, under each @types/node major.
  const strict = project(
    'strict',
    tarball,
    ['express@5', '@types/express@5'],
    // The errors consumer: every class from passport-otpless/errors, narrowed on err.code alone.
    { consumer: entryPoints, errors: ERRORS_CONSUMER },
    {
      compilerOptions: { ...compilerOptions, strict: true },
    },
  );
  for (const major of majors) {
    run('npm', ['install', ...quiet, `@types/node@${major}`], strict);
    run(process.execPath, [tsc, '-p', 'tsconfig.json'], strict);
    console.log(`tsc --strict without skipLibCheck, @types/node ${installed(strict, '@types/node')}: ok`);
  }

  // 2. @tsconfig/strictest, on every host; Express 4 in a folder of its own (its own @types/express).
  const strictest = { extends: '@tsconfig/strictest/tsconfig.json', compilerOptions };
  const common = ['@tsconfig/strictest', '@types/node', 'passport@0.7', '@types/passport'];
  const sessions = ['cookie-session@2', '@types/cookie-session', 'express-session@1', '@types/express-session'];
  const hosts = [
    {
      name: 'strictest-express5-connect-fastify',
      deps: [
        ...common,
        ...sessions,
        'express@5',
        '@types/express@5',
        'connect@3',
        '@types/connect',
        'fastify@5',
        '@fastify/passport@4',
        // @fastify/passport's declarations import it.
        '@fastify/secure-session@8',
      ],
      files: { express: expressApp, connect: connectApp, fastify: fastifyApp },
      label: (cwd) =>
        `Express ${installed(cwd, 'express')}, Connect ${installed(cwd, 'connect')}, Fastify ${installed(cwd, 'fastify')}`,
    },
    {
      name: 'strictest-express4',
      deps: [...common, ...sessions, 'express@4', '@types/express@4'],
      files: { express: expressApp },
      label: (cwd) => `Express ${installed(cwd, 'express')} (@types/express ${installed(cwd, '@types/express')})`,
    },
  ];
  for (const host of hosts) {
    const cwd = project(host.name, tarball, host.deps, host.files, strictest);
    run(process.execPath, [tsc, '-p', 'tsconfig.json'], cwd);
    console.log(`tsc with @tsconfig/strictest without skipLibCheck, ${host.label(cwd)}: ok`);
  }
} finally {
  if (!process.env.KEEP_TYPES_DIR) rmSync(dir, { recursive: true, force: true });
  else console.log(`kept ${dir} (${readdirSync(dir).join(', ')})`);
}
