// The emulator as a library on a developer's machine: refuses production, checks Host, warns
// when exposed, parses any User-Agent in linear time.
import { request } from 'node:http';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_USER_AGENT, deviceInfoFor, MAX_USER_AGENT_LENGTH } from '../../src/emulator/device.js';
import { startEmulator, type Emulator } from '../../src/emulator/index.js';
import { click, codeOf, lastEntry, SAFARI_UA, sendLink, verify } from './helpers.js';

/** A GET with an arbitrary Host header (fetch does not let a caller set Host). */
function getWithHost(url: string, host: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { headers: { host } }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('NODE_ENV=production', () => {
  const saved = process.env.NODE_ENV;
  afterEach(() => {
    if (saved === undefined) delete process.env.NODE_ENV;
    else process.env.NODE_ENV = saved;
  });

  it('refuses to start, with a message naming the way out', async () => {
    process.env.NODE_ENV = 'production';
    await expect(startEmulator()).rejects.toThrow(/NODE_ENV=production.*allowInProduction: true/s);
  });

  it('starts with allowInProduction: true', async () => {
    process.env.NODE_ENV = 'production';
    const emulator = await startEmulator({ allowInProduction: true });
    await emulator.close();
  });

  it('starts in any other environment', async () => {
    process.env.NODE_ENV = 'development';
    const emulator = await startEmulator();
    await emulator.close();
    await expect(startEmulator({ allowInProduction: 'yes' as never })).rejects.toThrow(/allowInProduction/);
  });
});

describe('Host header (DNS rebinding)', () => {
  let emulator: Emulator;
  let authPort: string;
  let userAuthPort: string;
  beforeAll(async () => {
    emulator = await startEmulator({ allowedHosts: ['emulator', 'Dev.Box.Test'] });
    authPort = new URL(emulator.authUrl).port;
    userAuthPort = new URL(emulator.userAuthUrl).port;
  });
  afterAll(() => emulator.close());

  it('answers 421 EMU-421 to a foreign name on every path of both hosts', async () => {
    await sendLink(emulator, { email: 'victim@example.com' });
    const paths = ['/', '/__emulator/outbox', new URL(lastEntry(emulator).link).pathname, '/auth/v1/authorize'];
    for (const path of paths) {
      const { status, body } = await getWithHost(`${emulator.authUrl}${path}`, `rebind.attacker.example:${authPort}`);
      expect(status, path).toBe(421);
      expect(JSON.parse(body)).toMatchObject({ errorCode: 'EMU-421' });
      expect(body).not.toContain('victim@example.com');
    }
    const userAuth = await getWithHost(
      `${emulator.userAuthUrl}/auth/v1/validate/token`,
      `evil.example:${userAuthPort}`,
    );
    expect(userAuth.status).toBe(421);
  });

  it('accepts 127.0.0.1, localhost, [::1], the configured and allowed names, with the right port', async () => {
    for (const name of ['127.0.0.1', 'localhost', 'LOCALHOST', '[::1]', 'emulator', 'dev.box.test']) {
      const { status } = await getWithHost(`${emulator.authUrl}/__emulator/outbox`, `${name}:${authPort}`);
      expect(status, name).toBe(200);
    }
  });

  it('refuses a known name with another port, no port, or a malformed value', async () => {
    for (const host of [`127.0.0.1:${userAuthPort}`, '127.0.0.1', `localhost:${authPort}0`, `[::1`, `[::1]x`]) {
      const { status } = await getWithHost(`${emulator.authUrl}/`, host);
      expect(status, host).toBe(421);
    }
  });

  it('keeps serving ordinary calls (fetch sends the URL host)', async () => {
    expect((await fetch(`${emulator.authUrl}/`)).status).toBe(200);
  });

  it('rejects a bad allowedHosts option', async () => {
    await expect(startEmulator({ allowedHosts: [''] })).rejects.toThrow(/allowedHosts/);
    await expect(startEmulator({ allowedHosts: 'emulator' as never })).rejects.toThrow(/allowedHosts/);
  });
});

describe('binding beyond loopback', () => {
  it('warns once per host through process warnings (and the log), never for loopback', async () => {
    const warnings: Error[] = [];
    const onWarning = (warning: Error) => warnings.push(warning);
    process.on('warning', onWarning);
    const lines: string[] = [];
    const started: Emulator[] = [];
    try {
      started.push(await startEmulator());
      started.push(await startEmulator({ host: 'localhost' }));
      started.push(await startEmulator({ host: '0.0.0.0', log: (line) => lines.push(line) }));
      started.push(await startEmulator({ host: '0.0.0.0' }));
      // Warnings are emitted on the next tick.
      await new Promise((resolve) => setImmediate(resolve));
      const ours = warnings.filter((w) => (w as Error & { code?: string }).code === 'OTPLESS_EMULATOR_EXPOSED');
      expect(ours).toHaveLength(1);
      expect(ours[0]?.message).toContain('0.0.0.0');
      expect(lines.filter((line) => line.includes('warning'))).toHaveLength(1);
      // Listening everywhere, it still answers on loopback.
      const wide = started[2]!;
      const port = new URL(wide.authUrl).port;
      expect((await fetch(`http://127.0.0.1:${port}/`)).status).toBe(200);
    } finally {
      process.off('warning', onWarning);
      await Promise.all(started.map((emulator) => emulator.close()));
    }
  });
});

describe('User-Agent parsing', () => {
  const adversarial: Array<[string, string]> = [
    ['many iPods, no " OS "', 'iPod'.repeat(4096)],
    ['many "iPod OS " without digits', 'iPod OS '.repeat(2048)],
    ['many "Version/1 " without Safari/', 'Version/1 '.repeat(1639)],
    ['mixed', 'iPad Version/1.1 '.repeat(964)],
  ];

  // The bound on the parser's work is the cut to MAX_USER_AGENT_LENGTH before any pattern runs
  // (and patterns written to be linear, see device.ts): shown by what is read, not by a stopwatch.
  it.each(adversarial)('reads only the first 512 characters of a 16 KB header of %s', (_name, text) => {
    const userAgent = text.padEnd(16 * 1024, 'x').slice(0, 16 * 1024);
    const seen = (ua: string) => deviceInfoFor({ userAgent: ua, ip: '203.0.113.9', language: 'en' }, 'clean');
    const device = seen(userAgent);
    expect(device.userAgent).toHaveLength(MAX_USER_AGENT_LENGTH);
    // Whatever follows the first 512 characters changes nothing: it is never parsed.
    expect(seen(userAgent.slice(0, MAX_USER_AGENT_LENGTH) + ' Chrome/99.0 Windows NT 10.0')).toEqual(device);
  });

  it('still reads real user agents', () => {
    const ios =
      'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';
    const seen = (userAgent: string) => deviceInfoFor({ userAgent, ip: '203.0.113.9', language: 'en' }, 'clean');
    expect(seen(ios).browserInfo).toMatchObject({ browserName: 'Safari', os: 'iOS', osVersion: '17.5' });
    expect(seen(SAFARI_UA).browserInfo).toMatchObject({ browserName: 'Safari', os: 'Mac OS', osVersion: '10.15.7' });
    expect(seen(DEFAULT_USER_AGENT).browserInfo).toMatchObject({
      browserName: 'Chrome',
      os: 'Windows',
      osVersion: '10',
    });
    // "Version/" without a later "Safari/" is no Safari.
    expect(seen('Foo Version/1.0 Bar').browser).toBe('Unknown');
  });

  it("keeps only the first 512 characters of a clicking browser's User-Agent", async () => {
    const emulator = await startEmulator();
    try {
      await sendLink(emulator, { email: 'long-ua@example.com' });
      const long = `${SAFARI_UA} ${'x'.repeat(8000)}`;
      const verified = await verify(emulator, codeOf(await click(lastEntry(emulator).link, { userAgent: long })));
      expect(verified.body.userDetails.deviceInfo.userAgent).toBe(long.slice(0, MAX_USER_AGENT_LENGTH));
    } finally {
      await emulator.close();
    }
  });
});
