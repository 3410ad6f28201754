// The Connect example against the local emulator: npx tsx examples/connect/start.ts
import { randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import { EMULATOR_DEFAULT_CLIENT, startEmulator } from 'passport-otpless/emulator';
import { createApp } from './app.js';

const port = Number(process.env.PORT ?? 3000);
const emulator = await startEmulator({ quiet: true });
const { app, close } = createApp({
  otpless: { ...EMULATOR_DEFAULT_CLIENT, authUrl: emulator.authUrl, userAuthUrl: emulator.userAuthUrl },
  callbackUrl: `http://localhost:${port}/auth/callback`,
  sessionKeys: [randomBytes(32).toString('hex')],
});
const server = createServer(app).listen(port);
console.log(`Connect app: http://localhost:${port}   dev inbox: ${emulator.authUrl}/`);
process.once('SIGINT', () => {
  server.close();
  void close().then(() => emulator.close());
});
