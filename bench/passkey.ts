/**
 * App CPU of a passkey sign-in against a link sign-in, in one paired run (`npx tsx bench/passkey.ts`).
 *
 * The app (Express 5, express-session, Passport, the one mount with `passkeys` on) runs in its
 * own process, the emulator in another, this driver in a third; the app's own CPU (user +
 * system, `process.cpuUsage()`) is read before and after each batch. Batches alternate (link,
 * passkey, link, ...), so both kinds meet the same machine state.
 *
 * - a link sign-in: the send (`POST /auth/magic-link`: the app calls the service), then the link's
 *   callback (the app verifies the code with the service, logs in, writes the offer's grant);
 * - a passkey sign-in: `POST /auth/passkey/login-options`, then `POST /auth/passkey/login` with an
 *   answer signed by a P-256 key in this driver (no service call, no message).
 *
 * Options: --batches (default 10 of each), --batch (logins per batch, default 30).
 */
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { Browser } from '../test/examples/helpers/browser.js';
import { CLIENT } from '../test/helpers/harness.js';
import { SoftAuthenticator } from '../test/helpers/softAuthenticator.js';
import { startEmulatorProcess } from '../test/resilience/support/emulatorProcess.js';
import { forkChild } from './support/child.js';
import { median } from './support/stats.js';

const { values } = parseArgs({ options: { batches: { type: 'string' }, batch: { type: 'string' } } });
const BATCHES = Number(values.batches ?? 10);
const BATCH = Number(values.batch ?? 30);
const WARMUP = 20;
const USERS = BATCHES * BATCH + WARMUP;

const emulator = await startEmulatorProcess({ emulator: { clients: [CLIENT], quiet: true } });
const device = new SoftAuthenticator('bench');
const app = await forkChild<{ url: string }>(fileURLToPath(new URL('./support/passkeyAppChild.ts', import.meta.url)), {
  authUrl: emulator.authUrl,
  userAuthUrl: emulator.userAuthUrl,
  publicKey: device.publicKeyCose.toString('base64url'),
  credentialId: 'bench',
  users: USERS,
});
const url = app.ready.url;
const cpu = (): Promise<number> => app.call<number>('cpu');

let links = 0;
async function linkLogin(): Promise<void> {
  const browser = new Browser(url);
  const email = `link-${(links += 1)}@example.com`;
  const sent = await browser.postForm('/auth/magic-link', { email });
  if (sent.status !== 303) throw new Error(`send answered ${sent.status}`);
  const [entry] = await emulator.entries([email]);
  const redirect = await browser.get(entry!.link);
  const landing = await browser.get(redirect.location!);
  if (landing.status !== 303 || !landing.location?.endsWith('/auth/passkey')) {
    throw new Error(`the callback answered ${landing.status} ${landing.location}`);
  }
}

let passkeys = 0;
async function passkeyLogin(): Promise<void> {
  const browser = new Browser(url);
  const user = passkeys++;
  const options = await browser.postJson('/auth/passkey/login-options', {});
  const { challenge } = options.json<{ challenge: string }>();
  const answer = device.assert({
    challenge,
    origin: url,
    rpId: 'localhost',
    counter: 0,
    userHandle: Buffer.from(`user-${user}`).toString('base64url'),
  });
  // The seeded credential ids are `bench-<n>`; the answer names the one of user n.
  const signedIn = await browser.postJson('/auth/passkey/login', {
    ...answer,
    id: `bench-${user}`,
    rawId: `bench-${user}`,
  });
  if (signedIn.status !== 200) throw new Error(`the passkey login answered ${signedIn.status} ${signedIn.text}`);
}

async function batch(run: () => Promise<void>): Promise<{ cpuMicros: number; wallMs: number }> {
  const before = await cpu();
  const started = performance.now();
  for (let i = 0; i < BATCH; i++) await run();
  const wallMs = performance.now() - started;
  return { cpuMicros: (await cpu()) - before, wallMs };
}

try {
  // Warm up both paths (JIT, the lazily loaded @simplewebauthn/server) before the clock.
  for (let i = 0; i < WARMUP; i++) await linkLogin();
  for (let i = 0; i < WARMUP; i++) await passkeyLogin();
  const link: number[] = [];
  const passkey: number[] = [];
  const linkWall: number[] = [];
  const passkeyWall: number[] = [];
  for (let b = 0; b < BATCHES; b++) {
    const l = await batch(linkLogin);
    const p = await batch(passkeyLogin);
    link.push(l.cpuMicros / BATCH);
    passkey.push(p.cpuMicros / BATCH);
    linkWall.push(l.wallMs / BATCH);
    passkeyWall.push(p.wallMs / BATCH);
  }
  const ratios = link.map((l, i) => passkey[i]! / l);
  const result = {
    logins: BATCHES * BATCH,
    appCpuPerLoginMicros: { link: Math.round(median(link)), passkey: Math.round(median(passkey)) },
    passkeyOverLink: Number(median(ratios).toFixed(2)),
    wallPerLoginMs: { link: Number(median(linkWall).toFixed(2)), passkey: Number(median(passkeyWall).toFixed(2)) },
    serviceCalls: { link: 'send + verify code', passkey: 'none' },
  };
  console.log(JSON.stringify(result, null, 2));
} finally {
  await app.close();
  await emulator.close();
}
