// Runs the TypeScript example against the local emulator: npx tsx examples/typescript/start.ts
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomBytes } from 'node:crypto';
import { EMULATOR_DEFAULT_CLIENT, startEmulator } from '../../src/emulator/index.js';
import { createApp } from './app.js';

const emulator = await startEmulator({ quiet: true });
const server = createServer();
await new Promise<void>((resolve) => server.listen(Number(process.env.PORT ?? 3000), '127.0.0.1', resolve));
const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
const { app, close } = createApp({
  otpless: { ...EMULATOR_DEFAULT_CLIENT, authUrl: emulator.authUrl, userAuthUrl: emulator.userAuthUrl },
  callbackUrl: `${url}/auth/callback`,
  // A random key per run (never a fixed one): this starter talks to the emulator only.
  sessionKeys: [randomBytes(32).toString('hex')],
});
server.on('request', app);
console.log(`App: ${url}   Dev inbox: ${emulator.authUrl}/   (Ctrl-C to stop)`);

process.once('SIGINT', () => {
  server.closeAllConnections();
  server.close();
  void close().then(() => emulator.close());
});
