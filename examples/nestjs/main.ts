// npx tsx --tsconfig examples/nestjs/tsconfig.json examples/nestjs/main.ts   (PLATFORM=fastify for Fastify)
import { randomBytes } from 'node:crypto';
import { EMULATOR_DEFAULT_CLIENT, startEmulator } from 'passport-otpless/emulator';
import { createApp, createFastifyApp } from './app.js';

const port = Number(process.env.PORT ?? 3000);
// Without OTPless credentials the local emulator stands in for the service.
const emulator = process.env.OTPLESS_CLIENT_ID ? undefined : await startEmulator({ quiet: true });
const create = process.env.PLATFORM === 'fastify' ? createFastifyApp : createApp;
const app = await create({
  otpless: emulator
    ? { ...EMULATOR_DEFAULT_CLIENT, authUrl: emulator.authUrl, userAuthUrl: emulator.userAuthUrl }
    : { clientId: process.env.OTPLESS_CLIENT_ID, clientSecret: requiredEnv('OTPLESS_CLIENT_SECRET') },
  callbackUrl: process.env.CALLBACK_URL ?? `http://localhost:${port}/auth/callback`,
  sessionKeys: [process.env.SESSION_KEY ?? randomBytes(32).toString('hex')],
  // PASSKEYS=1: the module's `passkeys` option, a passkey offered after a link login.
  ...(process.env.PASSKEYS ? { passkeys: true as const } : {}),
});
await app.listen(port);
console.log(`Nest app: http://localhost:${port}   dev inbox: ${emulator ? `${emulator.authUrl}/` : 'none'}`);
process.once('SIGINT', () => void app.close().then(() => emulator?.close()));

/** A setting the app cannot run without: no fallback, so a forgotten variable stops the start. */
function requiredEnv(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is required when OTPLESS_CLIENT_ID is set`);
  return value;
}
