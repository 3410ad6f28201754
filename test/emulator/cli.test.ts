// The otpless-emulator CLI, run as a developer would: `npx otpless-emulator` runs the package's
// bin, dist/cli.js (built from src/ first when stale; `npm run emulator` runs the same source).
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { ensureBuilt } from '../examples/helpers/ensureBuild.js';

// The bin as installed: one bundled file, far cheaper to start than npx + tsx on src/.
await ensureBuilt();

const running: ChildProcess[] = [];

/** Starts the CLI in its own process group (signals go to the group, as a terminal's Ctrl-C does). */
function startCli(
  args: string[],
  env: Record<string, string> = {},
): { child: ChildProcess; output: () => string; exited: Promise<number | null> } {
  const child = spawn(process.execPath, ['dist/cli.js', ...args], {
    cwd: new URL('../..', import.meta.url).pathname,
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
    env: { ...process.env, ...env },
  });
  running.push(child);
  let text = '';
  child.stdout?.on('data', (chunk: Buffer) => (text += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (text += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('close', (code) => resolve(code)));
  return { child, output: () => text, exited };
}

function signalGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  try {
    if (child.pid) process.kill(-child.pid, signal);
  } catch {
    // Already gone.
  }
}

async function waitFor(check: () => boolean, ms: number): Promise<void> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

function canListen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

/** A port P with P+1 also free at the time of asking. */
async function freePortPair(): Promise<number> {
  for (let attempt = 0; attempt < 20; attempt += 1) {
    const port = 40_000 + Math.floor(Math.random() * 20_000);
    if ((await canListen(port)) && (await canListen(port + 1))) return port;
  }
  throw new Error('no free port pair');
}

afterEach(() => {
  for (const child of running.splice(0)) signalGroup(child, 'SIGKILL');
});

// Child processes start slowly on a busy machine: a generous limit per test.
describe('otpless-emulator CLI', { timeout: 60_000 }, () => {
  it('starts on free ports, prints both URLs, the inbox and the credentials, serves, and closes on SIGTERM', async () => {
    const cli = startCli(['--port', '0']);
    await waitFor(() => cli.output().includes('Press Ctrl+C'), 45_000);
    const output = cli.output();
    const authUrl = /auth URL:\s+(http:\/\/127\.0\.0\.1:\d+)/.exec(output)?.[1];
    const userAuthUrl = /user-auth URL:\s+(http:\/\/127\.0\.0\.1:\d+)/.exec(output)?.[1];
    expect(authUrl).toBeDefined();
    expect(userAuthUrl).toBeDefined();
    expect(userAuthUrl).not.toBe(authUrl);
    expect(output).toContain(`dev inbox:      ${authUrl}/`);
    expect(output).toContain('client id:      emulator-client-id');
    expect(output).toContain('client secret:  emulator-client-secret');

    const inbox = await fetch(`${authUrl}/`);
    expect(inbox.status).toBe(200);
    expect(await inbox.text()).toContain('dev inbox');
    // Unlike the library, the command prints each link by default.
    const query = new URLSearchParams({
      client_id: 'emulator-client-id',
      client_secret: 'emulator-client-secret',
      redirect_uri: 'http://app.test/cb',
      email: 'printed@example.com',
    });
    expect((await fetch(`${authUrl}/auth/v1/authorize?${query}`)).status).toBe(200);
    await waitFor(() => cli.output().includes('/__emulator/link/'), 30_000);
    expect(cli.output()).toMatch(/EMAIL link to printed@example\.com/);
    const userAuth = await fetch(`${userAuthUrl}/auth/v1/validate/token`, { method: 'POST' });
    expect(userAuth.status).toBe(401);

    signalGroup(cli.child, 'SIGTERM');
    await cli.exited;
    await waitFor(() => cli.output().includes('closing'), 30_000);
    // Once closed, nothing listens any more.
    let refused = false;
    for (let i = 0; i < 50 && !refused; i += 1) {
      refused = await fetch(`${authUrl}/`).then(
        () => false,
        () => true,
      );
      if (!refused) await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(refused).toBe(true);
  });

  it('uses the given client and puts user-auth on the next port', async () => {
    const port = await freePortPair();
    const cli = startCli(['--port', String(port), '--client-id', 'my-id', '--client-secret', 'my-secret', '--quiet']);
    await waitFor(() => cli.output().includes('Press Ctrl+C') || cli.output().includes('otpless-emulator:'), 45_000);
    expect(cli.output()).toContain(`auth URL:       http://127.0.0.1:${port}`);
    expect(cli.output()).toContain(`user-auth URL:  http://127.0.0.1:${port + 1}`);
    expect(cli.output()).toContain('client id:      my-id');
    const query = new URLSearchParams({
      client_id: 'my-id',
      client_secret: 'my-secret',
      redirect_uri: 'http://app.test/cb',
      email: 'a@example.com',
    });
    expect((await fetch(`http://127.0.0.1:${port}/auth/v1/authorize?${query}`)).status).toBe(200);
    // --quiet: the link is not printed.
    expect(cli.output()).not.toContain('/__emulator/link/');
    signalGroup(cli.child, 'SIGINT');
    await cli.exited;
  });

  it('takes --quirk NAME (repeatable), prints the quirks in force, and behaves accordingly', async () => {
    const cli = startCli(['--port', '0', '--quirk', 'errorWith200', '--quirk', 'noErrorCodeOn401', '--quiet']);
    await waitFor(() => cli.output().includes('Press Ctrl+C') || cli.output().includes('otpless-emulator:'), 45_000);
    expect(cli.output()).toContain('quirks:         errorWith200, noErrorCodeOn401');
    const authUrl = /auth URL:\s+(http:\/\/127\.0\.0\.1:\d+)/.exec(cli.output())?.[1];
    const response = await fetch(`${authUrl}/auth/v1/authorize?client_id=x&client_secret=y`);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({
      message: 'Access blocked',
      description: 'Authorization error: Invalid credentials',
    });
    signalGroup(cli.child, 'SIGTERM');
    await cli.exited;
  });

  it('takes --not-delivered CHANNEL: the send answers 200, its message never arrives, the inbox says so', async () => {
    const cli = startCli(['--port', '0', '--not-delivered', 'WHATSAPP', '--quiet']);
    await waitFor(() => cli.output().includes('Press Ctrl+C') || cli.output().includes('otpless-emulator:'), 45_000);
    expect(cli.output()).toContain('not delivered:  WHATSAPP');
    const authUrl = /auth URL:\s+(http:\/\/127\.0\.0\.1:\d+)/.exec(cli.output())?.[1];
    const id = /client id:\s+(\S+)/.exec(cli.output())?.[1] ?? '';
    const secret = /client secret:\s+(\S+)/.exec(cli.output())?.[1] ?? '';
    const send = (channel: string) =>
      fetch(
        `${authUrl}/auth/v1/authorize?${new URLSearchParams({
          client_id: id,
          client_secret: secret,
          mobile_number: '919812345678',
          redirect_uri: 'http://127.0.0.1:3000/auth/callback',
          channel,
        })}`,
      );
    expect((await send('WHATSAPP')).status).toBe(200);
    expect((await send('WHATSAPP')).status).toBe(200);
    expect((await send('SMS')).status).toBe(200);
    const outbox = (await (await fetch(`${authUrl}/__emulator/outbox`)).json()) as { entries: { channel: string }[] };
    expect(outbox.entries.map((entry) => entry.channel)).toEqual(['SMS']);
    expect(await (await fetch(`${authUrl}/`)).text()).toContain('not delivered');
    signalGroup(cli.child, 'SIGTERM');
    await cli.exited;
  });

  it('refuses to start under NODE_ENV=production unless --allow-in-production', async () => {
    const refused = startCli(['--port', '0'], { NODE_ENV: 'production' });
    expect(await refused.exited).toBe(1);
    expect(refused.output()).toMatch(/otpless-emulator: .*NODE_ENV=production.*--allow-in-production/s);

    const allowed = startCli(['--port', '0', '--allow-in-production'], { NODE_ENV: 'production' });
    await waitFor(
      () => allowed.output().includes('Press Ctrl+C') || allowed.output().includes('otpless-emulator:'),
      45_000,
    );
    expect(allowed.output()).toContain('Press Ctrl+C');
    signalGroup(allowed.child, 'SIGTERM');
    await allowed.exited;
  });

  it('exits with code 2 and a message for bad arguments', async () => {
    const cases = [
      ['--port', 'nope'],
      ['--port', '70000'],
      ['--client-id', 'only-id'],
      ['--bogus'],
      ['extra'],
      ['--quirk', 'noSuchQuirk'],
      ['--allowed-host', ''],
      ['--not-delivered', 'VIBER'],
    ];
    const results = await Promise.all(
      cases.map(async (args) => {
        const cli = startCli(args);
        return { args, code: await cli.exited, output: cli.output() };
      }),
    );
    for (const { args, code, output } of results) {
      expect(code, args.join(' ')).toBe(2);
      expect(output).toMatch(/otpless-emulator: .+/);
      expect(output).toContain('Usage: otpless-emulator');
    }
  });

  it('prints the usage and exits 0 for --help', async () => {
    const cli = startCli(['--help']);
    expect(await cli.exited).toBe(0);
    expect(cli.output()).toContain('--user-auth-port');
    expect(cli.output()).toContain('--quirk NAME');
    expect(cli.output()).toContain('requestIdMismatch');
    expect(cli.output()).toContain('--allow-in-production');
  });
});
