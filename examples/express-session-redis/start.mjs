// Two instances of the app sharing one Redis, against the local emulator:
// ask for a link on instance A, and the link brings you back to instance B.
import { randomBytes } from 'node:crypto';
import { startEmulator, EMULATOR_DEFAULT_CLIENT } from 'passport-otpless/emulator';
import { createApp, listen } from './app.mjs';

const redisUrl = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
// Never a fixed fallback: without SESSION_SECRET a random one for this process only.
const sessionSecret = process.env.SESSION_SECRET ?? randomBytes(32).toString('hex');
if (!process.env.SESSION_SECRET) {
  console.warn(
    'Note: SESSION_SECRET is not set, so sessions end when this process stops (and other processes cannot read them).',
  );
}

const emulator = await startEmulator({ quiet: true });
const a = await listen(Number(process.env.PORT ?? 3001));
const b = await listen(a.server.address().port + 1);
// Behind a load balancer both would share one public URL; here the callback goes to B.
const shared = {
  otpless: { ...EMULATOR_DEFAULT_CLIENT, authUrl: emulator.authUrl, userAuthUrl: emulator.userAuthUrl },
  callbackUrl: `${b.url}/auth/callback`,
  redisUrl,
  sessionSecret,
};
const apps = [];
try {
  for (const [instance, { server }] of [
    ['A', a],
    ['B', b],
  ]) {
    const created = await createApp({ ...shared, instance });
    server.on('request', created.app);
    apps.push(created);
  }
} catch (err) {
  // Only the host: a Redis URL may carry a password, which has no place in a log line.
  const where = URL.canParse(redisUrl) ? new URL(redisUrl).host : 'REDIS_URL';
  console.error(`Could not start: ${err.message} (is Redis running at ${where}? Set REDIS_URL)`);
  process.exit(1);
}

console.log(`Instance A: ${a.url}  (ask for a link here)
Instance B: ${b.url}  (the link comes back here)
Dev inbox:  ${emulator.authUrl}/
Then open ${a.url}/me and ${b.url}/me: the same login on both. Ctrl-C to stop.`);

process.once('SIGINT', async () => {
  for (const { server } of [a, b]) {
    server.closeAllConnections();
    server.close();
  }
  await Promise.all(apps.map((app) => app.close()));
  await emulator.close();
});
