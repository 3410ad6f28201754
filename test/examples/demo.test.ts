import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { createServer } from 'node:net';
import type { AddressInfo, Server } from 'node:net';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { ensureBuilt } from './helpers/ensureBuild.js';

// `npm run demo` is `node examples/demo.mjs`: run exactly that, as a person would.
await ensureBuilt();

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const children: ChildProcess[] = [];
const blockers: Server[] = [];

afterEach(async () => {
  for (const child of children.splice(0))
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  await Promise.all(blockers.splice(0).map((s) => new Promise((resolve) => s.close(resolve))));
});

interface Demo {
  child: ChildProcess;
  output(): string;
  /** Resolves with the output once `pattern` appears in it. */
  waitFor(pattern: RegExp, ms?: number): Promise<string>;
  exited: Promise<number | null>;
}

function runDemo(env: Record<string, string | undefined>): Demo {
  const clean = { ...process.env };
  for (const name of ['OTPLESS_CLIENT_ID', 'OTPLESS_CLIENT_SECRET', 'CALLBACK_URL', 'PORT', 'DEFAULT_COUNTRY']) {
    delete clean[name];
  }
  const child = spawn(process.execPath, ['examples/demo.mjs'], {
    cwd: ROOT,
    env: { ...clean, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = once(child, 'exit').then(([code]) => code as number | null);
  return {
    child,
    output: () => output,
    exited,
    // Woken by the child's output and exit, not by polling; the deadline only names what was
    // missing, far beyond a normal start, and below the test's own timeout.
    async waitFor(pattern, ms = 45_000) {
      if (pattern.test(output)) return output;
      if (child.exitCode !== null) throw new Error(`the demo exited with ${child.exitCode}:\n${output}`);
      return new Promise<string>((resolve, reject) => {
        const check = () => {
          if (!pattern.test(output)) return;
          stop();
          resolve(output);
        };
        const onExit = () => {
          stop();
          reject(new Error(`the demo exited with ${child.exitCode}:\n${output}`));
        };
        const timer = setTimeout(() => {
          stop();
          reject(new Error(`no ${pattern} within ${ms} ms:\n${output}`));
        }, ms);
        const stop = () => {
          clearTimeout(timer);
          child.stdout!.off('data', check);
          child.stderr!.off('data', check);
          child.off('exit', onExit);
        };
        // Listeners added after runDemo's own, so `output` already holds the new chunk.
        child.stdout!.on('data', check);
        child.stderr!.on('data', check);
        child.once('exit', onExit);
      });
    },
  };
}

async function busyPort(): Promise<number> {
  const server = createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  blockers.push(server);
  return (server.address() as AddressInfo).port;
}

// Child processes start slowly on a busy machine: a generous limit, the waits are event-driven.
describe('npm run demo', { timeout: 60_000 }, () => {
  it("prints the URL to open (and the dev inbox's), which leads to the package's sign-in page, and stops cleanly on Ctrl-C", async () => {
    const demo = runDemo({ PORT: '0' });
    const output = await demo.waitFor(/Press Ctrl-C to stop/);
    const urls = /Open (http:\/\/\S+)/.exec(output)?.slice(1) ?? [];
    expect(urls).toHaveLength(1);
    expect(output).toContain('no account, no network needed');

    expect(output).toMatch(/Links arrive in the dev inbox: http:\/\/127\.0\.0\.1:\d+\//);

    const page = await fetch(urls[0]!);
    expect(page.status).toBe(200);
    expect(new URL(page.url).pathname).toBe('/auth/sign-in');
    const text = await page.text();
    expect(text).toContain('<p class="brand">Acme</p>');
    expect(text).toContain('Send me a sign-in link');

    // A page behind sign-in sends the visitor to the sign-in page (and back once signed in).
    const wanted = await fetch(`${urls[0]!}/payments`, { redirect: 'manual' });
    expect(wanted.status).toBe(302);
    expect(wanted.headers.get('location')).toBe('/auth/sign-in');

    // A clean stop exits 0 after "Stopped."; a close that hangs is cut by the demo's own
    // fallback with exit code 1 (no stopwatch here).
    demo.child.kill('SIGINT');
    expect(await demo.exited).toBe(0);
    expect(demo.output()).toContain('Stopped.');
    await expect(fetch(urls[0]!)).rejects.toThrow();
  });

  it('takes a free port when the asked one is busy', async () => {
    const port = await busyPort();
    const demo = runDemo({ PORT: String(port) });
    const output = await demo.waitFor(/Press Ctrl-C to stop/);
    expect(output).toContain(`Port ${port} is in use, so the demo took a free one.`);
    const url = /Open (http:\/\/127\.0\.0\.1:(\d+))/.exec(output);
    expect(Number(url?.[2])).not.toBe(port);
    expect((await fetch(url![1]!)).status).toBe(200);
    demo.child.kill('SIGTERM');
    expect(await demo.exited).toBe(0);
  });

  it('says which variable is missing when only part of the real-service setup is given', async () => {
    const demo = runDemo({ OTPLESS_CLIENT_ID: 'some-id', PORT: '0' });
    expect(await demo.exited).toBe(1);
    expect(demo.output()).toContain('missing: OTPLESS_CLIENT_SECRET, CALLBACK_URL');
    expect(demo.output()).not.toContain('some-id');
  });

  it('reads DEFAULT_COUNTRY, and on the emulator lets every dev-inbox scenario be tried in a row', async () => {
    const demo = runDemo({ PORT: '0', DEFAULT_COUNTRY: 'us' });
    const output = await demo.waitFor(/Press Ctrl-C to stop/);
    const url = /Open (http:\/\/\S+)/.exec(output)![1]!;
    // Seven risk scenarios, each a link of its own, to one number typed without its country code.
    for (let i = 0; i < 8; i++) {
      const sent = await fetch(`${url}/auth/magic-link`, {
        method: 'POST',
        redirect: 'manual',
        headers: { origin: url, accept: 'text/html', 'content-type': 'application/x-www-form-urlencoded' },
        body: 'mobile=(415)%20555-0123',
      });
      expect(sent.status).toBe(303);
      expect(sent.headers.get('location')).toBe('/auth/waiting');
    }
    demo.child.kill('SIGTERM');
    expect(await demo.exited).toBe(0);
  });

  it('says what DEFAULT_COUNTRY must be', async () => {
    const demo = runDemo({ PORT: '0', DEFAULT_COUNTRY: 'Narnia' });
    expect(await demo.exited).toBe(1);
    expect(demo.output()).toContain('DEFAULT_COUNTRY must be a two-letter country code such as US or IN');
  });
});

// The demo's pages (examples/express-cookie-session, which `npm run demo` serves), as a person meets them.
describe("the demo's pages", async () => {
  const { startEmulator } = await import('../../src/emulator/index.js');
  const { Browser, visibleText } = await import('./helpers/browser.js');
  const { linkTo, openLink } = await import('./helpers/inbox.js');
  const { startApp } = await import('../../examples/express-cookie-session/app.mjs');
  const CLIENT = { clientId: 'demo-pages-client', clientSecret: 'demo-pages-secret-value' };
  type Emulator = Awaited<ReturnType<typeof startEmulator>>;

  async function withDemo(run: (browser: InstanceType<typeof Browser>, emulator: Emulator) => Promise<void>) {
    const emulator = await startEmulator({ clients: [CLIENT], quiet: true });
    const app = await startApp({
      otpless: { ...CLIENT, authUrl: emulator.authUrl, userAuthUrl: emulator.userAuthUrl },
      sessionKeys: ['demo-pages-session-key-0123456789'],
      devInboxUrl: `${emulator.authUrl}/`,
      limits: false,
      log: () => {},
    });
    try {
      await run(new Browser(app.url), emulator);
    } finally {
      await app.close();
      await emulator.close();
    }
  }
  const main = (html: string) => visibleText(/<main[^>]*>([\s\S]*)<\/main>/.exec(html)?.[1] ?? '');

  it('the asking tab notices a sign-in finished in another tab of the same browser', async () => {
    await withDemo(async (browser, emulator) => {
      expect((await browser.postForm('/auth/magic-link', { email: 'tabs@example.com' })).status).toBe(303);
      expect(main((await browser.get('/auth/waiting')).text)).toContain('We sent a sign-in link');
      // The other tab (same browser, same cookies) opens the link and is signed in.
      const other = await openLink(browser, linkTo(emulator, 'tabs@example.com'));
      expect(other.location).toMatch(/\/account$/);
      // The asking tab's poll sees nothing pending any more; its reload goes on to the account,
      // where a login goes.
      expect((await browser.get('/auth/status', { accept: 'application/json' })).json()).toEqual({ status: 'none' });
      const again = await browser.get('/auth/waiting');
      expect(again.status).toBe(303);
      expect(again.location).toMatch(/\/account$/);
    });
  });

  it('after "This wasn\'t me" the waiting page says only what is true, with one way on', async () => {
    await withDemo(async (laptop, emulator) => {
      await laptop.postForm('/auth/magic-link', { mobile: '+14155550123', channel: 'WHATSAPP' });
      expect((await laptop.get('/auth/waiting')).text).toContain('<title>Check your messages');
      const phone = laptop.fresh();
      const redirect = await phone.get(linkTo(emulator, '+14155550123'));
      expect((await phone.postForm(redirect.location!, { decision: 'deny' })).status).toBe(200);

      const page = await laptop.get('/auth/waiting');
      const text = main(page.text);
      expect(text).toContain('This sign-in was not completed');
      expect(text).toContain('Nobody was signed in');
      expect(page.text).not.toContain('Check your messages');
      expect(text).not.toContain('dev inbox');
      expect(text).not.toContain('We sent a sign-in link');
      expect(page.text).not.toContain('id="waiting-match"');
      expect(text.match(/Start again/g)).toHaveLength(1);
    });
  });

  it('a 5,000-character entry gets the form again, 400, with the field named (not "try again in a moment")', async () => {
    await withDemo(async (browser) => {
      const page = await browser.postForm('/auth/magic-link', { email: 'a'.repeat(5000) });
      expect(page.status).toBe(400);
      expect(main(page.text)).toContain('Enter a valid e-mail address');
      expect(page.text).toContain('aria-invalid="true"');
      expect(main(page.text)).not.toMatch(/try again in a moment/i);
    });
  });
});
