// The otpless-check command, run as a person would (`npx otpless-check` runs the package's bin,
// dist/check.js, built from src/ first when stale) against an emulator: exit codes, JSON on
// stdout, and never the secret or the code in anything it prints.
import { spawn, type ChildProcess } from 'node:child_process';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Emulator } from '../../src/emulator/index.js';
import type { CheckReport } from '../../src/check/types.js';
import { ensureBuilt } from '../examples/helpers/ensureBuild.js';
import { CLIENT, codeIn, locationOf, newest, startCheckEmulator } from './helpers.js';

// The bin as installed: one bundled file, a third of the start-up cost of compiling src/ each time.
await ensureBuilt();

const root = new URL('../..', import.meta.url).pathname;
const running: ChildProcess[] = [];

interface Cli {
  child: ChildProcess;
  stdout: () => string;
  stderr: () => string;
  exited: Promise<number | null>;
}

function startCli(args: string[], env: Record<string, string> = {}): Cli {
  const child = spawn(process.execPath, ['dist/check.js', ...args], {
    cwd: root,
    stdio: ['pipe', 'pipe', 'pipe'],
    // Only what the command needs: no OTPLESS_* of the machine running the tests.
    env: { PATH: process.env.PATH ?? '', ...env },
  });
  running.push(child);
  let out = '';
  let err = '';
  child.stdout?.on('data', (chunk: Buffer) => (out += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (err += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('close', (code) => resolve(code)));
  return { child, stdout: () => out, stderr: () => err, exited };
}

async function waitFor(check: () => boolean, ms: number): Promise<void> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

let emulator: Emulator;
beforeAll(async () => {
  emulator = await startCheckEmulator();
});
beforeEach(() => emulator.reset());
afterEach(() => {
  for (const child of running.splice(0)) child.kill('SIGKILL');
});
afterAll(() => emulator.close());

const hosts = () => ['--auth-url', emulator.authUrl, '--user-auth-url', emulator.userAuthUrl];
const credentials = { OTPLESS_CLIENT_ID: CLIENT.clientId, OTPLESS_CLIENT_SECRET: CLIENT.clientSecret };

describe('otpless-check', () => {
  it('--json: the link followed to its listener, exit 0, the report on stdout, no secret or code anywhere', async () => {
    const cli = startCli(['--json', '--email', 'ada@example.com', '--timeout', '30s', ...hosts()], credentials);
    await waitFor(() => cli.stderr().includes('Open the link'), 45_000);
    expect(cli.stderr()).toContain('On a phone: the page will not load');
    const location = await locationOf(newest(emulator).link);
    expect(location).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/callback\?flow=otpless-check-probe&code=/);
    await (await fetch(location)).text();

    expect(await cli.exited).toBe(0);
    const report = JSON.parse(cli.stdout()) as CheckReport;
    expect(report.complete).toBe(true);
    expect(report.queryKept.kept).toBe(true);
    expect(report.enrichment.outcome).toBe('expected');
    for (const text of [cli.stdout(), cli.stderr()]) {
      expect(text).not.toContain(CLIENT.clientSecret);
      expect(text).not.toContain(codeIn(location));
    }
  }, 60_000);

  it('--landing: no listener; the URL the browser landed on is pasted on stdin; a table on stdout', async () => {
    const cli = startCli(
      ['--email', 'ada@example.com', '--landing', 'http://app.test/landing', '--timeout', '30s', ...hosts()],
      credentials,
    );
    await waitFor(() => cli.stderr().includes('paste here'), 45_000);
    const location = await locationOf(newest(emulator).link);
    expect(location).toMatch(/^http:\/\/app\.test\/landing\?flow=otpless-check-probe&code=/);
    cli.child.stdin?.write('this is not it\n');
    cli.child.stdin?.write(`${location}\n`);

    expect(await cli.exited).toBe(0);
    expect(cli.stdout()).toMatch(/query of redirect_uri kept\s+as assumed\s+kept/);
    expect(cli.stdout()).toContain("crossDevice 'handoff' (the default) works");
    expect(cli.stderr()).toContain('That is not the URL');
    for (const text of [cli.stdout(), cli.stderr()]) {
      expect(text).not.toContain(CLIENT.clientSecret);
      expect(text).not.toContain(codeIn(location));
    }
  }, 60_000);

  it('refused credentials given as flags: exit 1, a note on shell history, the secret never printed', async () => {
    const secret = `wrong-${CLIENT.clientSecret}`;
    const cli = startCli([
      '--json',
      '--email',
      'ada@example.com',
      '--client-id',
      CLIENT.clientId,
      `--client-secret=${secret}`,
      ...hosts(),
    ]);
    expect(await cli.exited).toBe(1);
    expect(cli.stderr()).toContain('--client-secret stays in your shell history');
    const report = JSON.parse(cli.stdout()) as CheckReport;
    expect(report.credentials).toMatchObject({ accepted: false, probe: { status: 401, errorCode: '7002' } });
    for (const text of [cli.stdout(), cli.stderr()]) expect(text).not.toContain(secret);
    expect(emulator.outbox()).toEqual([]);
  }, 60_000);

  it('nobody opens the link before --timeout: exit 1', async () => {
    const cli = startCli(['--email', 'ada@example.com', '--timeout', '1s', ...hosts()], credentials);
    cli.child.stdin?.end();
    expect(await cli.exited).toBe(1);
    expect(cli.stdout()).toMatch(/code's parameter\s+FAILED\s+the link was not opened within 1 s/);
  }, 60_000);

  it('exits 2 with the usage for command-line mistakes, never echoing the secret', async () => {
    const cases: Array<{ args: string[]; env?: Record<string, string>; says: RegExp }> = [
      { args: ['--email', 'a@example.com'], env: {}, says: /no client id/ },
      { args: ['--email', 'a@example.com', '--client-id', 'x'], env: {}, says: /no client secret/ },
      { args: [], says: /give --email and\/or --mobile/ },
      { args: ['--email', 'a@example.com', '--port', 'nope'], says: /--port/ },
      { args: ['--email', 'a@example.com', '--timeout', 'soon'], says: /--timeout/ },
      { args: ['--email', 'a@example.com', '--channel', 'VIBER'], says: /--channel/ },
      { args: ['--email', 'not-an-address'], says: /e-mail address is not valid/ },
      { args: ['--mobile', '12'], says: /mobile number/ },
      { args: ['--email', 'a@example.com', '--probe-plus'], says: /\+ probe needs a mobile/ },
      { args: ['--email', 'a@example.com', '--bogus'], says: /bogus/ },
      { args: ['--email', 'a@example.com', 'extra'], says: /extra/ },
    ];
    const results = await Promise.all(
      cases.map(async ({ args, env, says }) => {
        const cli = startCli([...args, ...hosts()], env ?? credentials);
        return { args, says, code: await cli.exited, out: cli.stdout(), err: cli.stderr() };
      }),
    );
    for (const { args, says, code, out, err } of results) {
      expect(code, args.join(' ')).toBe(2);
      expect(err, args.join(' ')).toMatch(says);
      expect(err).toContain('Usage: otpless-check');
      expect(out).toBe('');
      expect(err).not.toContain(CLIENT.clientSecret);
    }
    expect(emulator.outbox()).toEqual([]);
  }, 60_000);

  it('--help prints the usage and exits 0', async () => {
    const cli = startCli(['--help']);
    expect(await cli.exited).toBe(0);
    expect(cli.stdout()).toContain('OTPLESS_CLIENT_SECRET');
    expect(cli.stdout()).toContain('--probe-plus');
    expect(cli.stdout()).toContain('--landing URL');
  }, 60_000);
});
