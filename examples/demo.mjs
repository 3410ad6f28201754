// `npm run demo`: the express-cookie-session example against a local OTPless emulator (no
// account, no network), or against the real service when its three variables are set.
import { randomBytes } from 'node:crypto';

const REAL_SERVICE_VARS = ['OTPLESS_CLIENT_ID', 'OTPLESS_CLIENT_SECRET', 'CALLBACK_URL'];

async function main() {
  const env = process.env;
  const port = parsePort(env.PORT);
  const given = REAL_SERVICE_VARS.filter((name) => env[name]);
  if (given.length > 0 && given.length < REAL_SERVICE_VARS.length) {
    const missing = REAL_SERVICE_VARS.filter((name) => !env[name]);
    throw new Error(
      `to use the real OTPless service set ${REAL_SERVICE_VARS.join(', ')} (missing: ${missing.join(', ')}); set none of them to use the emulator`,
    );
  }
  const realService = given.length === REAL_SERVICE_VARS.length;

  // The package by its own name: dist/ must be built (`npm run demo` does it first, through `predemo`).
  const [{ startApp, EMULATOR_LIMITS }, { startEmulator, EMULATOR_DEFAULT_CLIENT }] = await importOrExplain();
  const defaultCountry = parseCountry(env.DEFAULT_COUNTRY);

  const sessionKeys = env.SESSION_KEYS
    ? env.SESSION_KEYS.split(',').map((key) => key.trim())
    : [randomBytes(32).toString('hex')];
  if (realService && !env.SESSION_KEYS)
    console.warn('Note: SESSION_KEYS is not set, so sessions end when the app stops.');

  const closers = [];
  const stop = async () => {
    for (const close of closers.reverse()) await close();
  };
  try {
    let started;
    let devInboxUrl;
    if (realService) {
      started = await startApp({
        port,
        host: env.HOST ?? '127.0.0.1',
        callbackUrl: env.CALLBACK_URL,
        otpless: { clientId: env.OTPLESS_CLIENT_ID, clientSecret: env.OTPLESS_CLIENT_SECRET },
        sessionKeys,
        trustProxy: parseTrustProxy(env.TRUST_PROXY),
        defaultCountry,
      });
    } else {
      const emulator = await startEmulator({ quiet: true });
      closers.push(() => emulator.close());
      // NOT_DELIVERED=WHATSAPP: the emulator loses every WhatsApp message (the service answers,
      // nothing arrives), so the waiting page's "Send by SMS instead" can be tried.
      if (env.NOT_DELIVERED) {
        emulator.fault({
          path: '/auth/v1/authorize',
          notDelivered: env.NOT_DELIVERED.trim().toUpperCase(),
          times: Infinity,
        });
      }
      devInboxUrl = `${emulator.authUrl}/`;
      started = await startApp({
        port,
        fallbackToFreePort: true,
        otpless: { ...EMULATOR_DEFAULT_CLIENT, authUrl: emulator.authUrl, userAuthUrl: emulator.userAuthUrl },
        devInboxUrl,
        sessionKeys,
        defaultCountry,
        // Loose on the emulator, so every scenario of the dev inbox can be tried in a row.
        limits: EMULATOR_LIMITS,
      });
    }
    closers.push(() => started.close());

    const mode = realService ? 'the OTPless service' : 'a local OTPless emulator: no account, no network needed';
    if (started.portWasBusy) console.log(`Port ${port} is in use, so the demo took a free one.`);
    const inbox = realService ? '' : `\n  Links arrive in the dev inbox: ${devInboxUrl}\n`;
    console.log(`\npassport-otpless demo, with ${mode}\n\n  Open ${started.url}\n${inbox}\nPress Ctrl-C to stop.`);
  } catch (err) {
    await stop();
    throw err;
  }

  let stopping = false;
  const onSignal = () => {
    if (stopping) process.exit(130); // a second Ctrl-C: stop waiting
    stopping = true;
    console.log('\nStopping...');
    // Open keep-alive sockets or a stuck close must not keep the process alive for long.
    setTimeout(() => process.exit(1), 5000).unref();
    stop().then(
      () => console.log('Stopped.'),
      (err) => {
        console.error(`Could not stop cleanly: ${err.message}`);
        process.exitCode = 1;
      },
    );
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
}

async function importOrExplain() {
  try {
    return await Promise.all([import('./express-cookie-session/app.mjs'), import('passport-otpless/emulator')]);
  } catch (err) {
    if (err.code === 'ERR_MODULE_NOT_FOUND' && /passport-otpless|[\\/]dist[\\/]/.test(err.message)) {
      throw new Error(
        'the package is not built yet: start the demo with `npm run demo` (it builds dist/ first), or run `npm run build` once',
        {
          cause: err,
        },
      );
    }
    throw err;
  }
}

function parsePort(value) {
  if (value === undefined || value === '') return 3000;
  const port = Number(value);
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new Error(`PORT must be a port number from 0 to 65535, got "${value}"`);
  return port;
}

/** `DEFAULT_COUNTRY=US`: numbers typed without + and a country code are read as US numbers. */
function parseCountry(value) {
  if (value === undefined || value === '') return undefined;
  const code = value.trim().toUpperCase();
  if (!/^[A-Z]{2}$/.test(code))
    throw new Error(`DEFAULT_COUNTRY must be a two-letter country code such as US or IN, got "${value}"`);
  return code;
}

function parseTrustProxy(value) {
  if (value === undefined || value === '' || value === 'false') return false;
  if (value === 'true') return true;
  return /^\d+$/.test(value) ? Number(value) : value;
}

main().catch((err) => {
  console.error(`demo: ${err.message}`);
  process.exitCode = 1;
});
