/**
 * Getting logins ready before the clock starts: a code is single-use and a callback needs the
 * pending-request cookie of the browser that asked for the link, so each timed callback gets
 * its own (cookie, code) pair, prepared through the app's real send route and a real click.
 */
import { fileURLToPath } from 'node:url';
import { Agent, request } from 'undici';
import type { EmulatorProcess } from '../../test/resilience/support/emulatorProcess.js';
import type { AppChildArgs } from './appChild.js';
import { forkChild, type Child } from './child.js';

import { CookieJar } from '../../test/helpers/cookieJar.js';

export { CookieJar };

export interface PreparedLogin {
  email: string;
  /** The browser's cookies after the send: the signed session with the pending request. */
  cookie: string;
  /** `/auth/callback?code=...` as the link redirected to it. */
  path: string;
  /** The emulator's session token of this login (valid once the code is verified). */
  sessionToken: string;
}

/** Runs `task(i)` for i < count with at most `concurrency` in flight. */
export async function pool(count: number, concurrency: number, task: (i: number) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < count) await task(next++);
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, count) }, worker));
}

let prepared = 0;

/**
 * `count` logins sent through the app's send route and clicked, not yet called back. Batches
 * stay under the emulator's outbox cap (1000) so no link drops out before it is read.
 */
export async function prepareLogins(
  appUrl: string,
  emulator: EmulatorProcess,
  count: number,
  agent: Agent,
): Promise<PreparedLogin[]> {
  const out: PreparedLogin[] = [];
  const BATCH = 500;
  for (let start = 0; start < count; start += BATCH) {
    const size = Math.min(BATCH, count - start);
    const batch: Array<{ email: string; cookie: string }> = [];
    await pool(size, 50, async () => {
      const email = `bench-${process.pid}-${++prepared}@example.com`;
      const jar = new CookieJar();
      const res = await request(`${appUrl}/auth/magic-link`, {
        dispatcher: agent,
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json' },
        body: JSON.stringify({ email }),
      });
      jar.take(res.headers['set-cookie']);
      await res.body.dump();
      if (res.statusCode !== 200) throw new Error(`send answered ${res.statusCode}`);
      batch.push({ email, cookie: jar.header() });
    });
    const entries = await emulator.entries(batch.map((b) => b.email));
    await pool(size, 50, async (i) => {
      const entry = entries[i];
      const item = batch[i];
      if (!entry || !item) throw new Error('a sent link is missing from the outbox');
      out.push({ ...item, sessionToken: entry.sessionToken, path: await clickLink(entry.link, agent) });
    });
  }
  return out;
}

/** Opens a magic link (no redirect follow) and returns the callback path and query. */
export async function clickLink(link: string, agent: Agent): Promise<string> {
  const res = await request(link, { dispatcher: agent, method: 'GET' });
  await res.body.dump();
  const location = res.headers.location;
  if (res.statusCode !== 302 || typeof location !== 'string') throw new Error(`link answered ${res.statusCode}`);
  const url = new URL(location);
  return `${url.pathname}${url.search}`;
}

/** Completes prepared logins (the callback, then /me) and checks each one is its own user. */
export async function completeLogins(
  appUrl: string,
  logins: PreparedLogin[],
  agent: Agent,
  concurrency = 50,
): Promise<void> {
  await pool(logins.length, concurrency, async (i) => {
    const login = logins[i] as PreparedLogin;
    const jar = new CookieJar();
    jar.take(login.cookie.split('; '));
    // As a browser asks: the mount answers a client without Accept as a JSON client.
    const callback = await request(`${appUrl}${login.path}`, {
      dispatcher: agent,
      headers: { cookie: jar.header(), accept: 'text/html' },
    });
    jar.take(callback.headers['set-cookie']);
    await callback.body.dump();
    // 302 from Passport's own redirect, 303 from the mount's.
    if (callback.statusCode !== 302 && callback.statusCode !== 303)
      throw new Error(`callback answered ${callback.statusCode}`);
    const me = await request(`${appUrl}/me`, {
      dispatcher: agent,
      headers: { cookie: jar.header(), accept: 'application/json' },
    });
    const body = (await me.body.json()) as { user?: { email?: string } };
    if (body.user?.email !== login.email)
      throw new Error(`crossed session: ${login.email} saw ${String(body.user?.email)}`);
  });
}

export type App = Child<{ url: string }>;

/** CPU time (user + system, µs) the app process has used so far. */
export async function appCpuMicros(app: App): Promise<number> {
  const { user, system } = await app.call<{ user: number; system: number }>('cpu');
  return user + system;
}

const APP_CHILD = fileURLToPath(new URL('./appChild.ts', import.meta.url));

/** Starts an app under test in its own process. */
export function startApp(args: AppChildArgs, options: { exposeGc?: boolean; execArgv?: string[] } = {}): Promise<App> {
  return forkChild<{ url: string }>(APP_CHILD, args, options);
}
