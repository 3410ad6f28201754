// Send magic link: validation like the service, one outbox entry per channel, link log lines.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startEmulator, type Emulator } from '../../src/emulator/index.js';
import { CLIENT, expectErrorShape, REDIRECT_URI, sendLink } from './helpers.js';

let emulator: Emulator;
const logged: string[] = [];
beforeAll(async () => {
  emulator = await startEmulator({ log: (line) => logged.push(line) });
});
beforeEach(() => {
  emulator.reset();
  logged.length = 0;
});
afterAll(() => emulator.close());

describe('validation', () => {
  const cases: Array<[string, Parameters<typeof sendLink>[1], string]> = [
    ['missing redirect_uri', { email: 'a@example.com', redirect_uri: '' }, '7108'],
    ['relative redirect_uri', { email: 'a@example.com', redirect_uri: '/callback' }, '7108'],
    ['non-http redirect_uri', { email: 'a@example.com', redirect_uri: 'javascript:alert(1)' }, '7108'],
    ['ftp redirect_uri', { email: 'a@example.com', redirect_uri: 'ftp://example.com/cb' }, '7108'],
    ['no mobile_number and no email', {}, '7104'],
    ['mobile_number with plus', { mobile_number: '+919876543210' }, '7102'],
    ['mobile_number too short', { mobile_number: '9198765' }, '7102'],
    ['mobile_number too long', { mobile_number: '9198765432101234' }, '7102'],
    ['mobile_number with letters', { mobile_number: '91987654321a' }, '7102'],
    ['mobile_number with leading zero', { mobile_number: '0919876543' }, '7102'],
    ['email without @', { email: 'jane.example.com' }, '7103'],
    ['email without domain dot', { email: 'jane@localhost' }, '7103'],
    ['email with spaces', { email: 'ja ne@example.com' }, '7103'],
    ['valid email, bad mobile', { email: 'a@example.com', mobile_number: '12' }, '7102'],
    ['expiry too small', { email: 'a@example.com', expiry: '29' }, '7105'],
    ['expiry too large', { email: 'a@example.com', expiry: '2592001' }, '7105'],
    ['expiry not an integer', { email: 'a@example.com', expiry: '60.5' }, '7105'],
    ['expiry negative', { email: 'a@example.com', expiry: '-60' }, '7105'],
    ['expiry not a number', { email: 'a@example.com', expiry: 'soon' }, '7105'],
  ];
  for (const [name, params, errorCode] of cases) {
    it(`answers 400 ${errorCode} for ${name}, and delivers nothing`, async () => {
      const { status, body } = await sendLink(emulator, params);
      expect(status).toBe(400);
      expectErrorShape(body, errorCode);
      expect(emulator.outbox()).toEqual([]);
    });
  }

  it('accepts the expiry bounds 30 and 2592000', async () => {
    for (const expiry of ['30', '2592000']) {
      const before = emulator.now();
      const { status } = await sendLink(emulator, { email: 'a@example.com', expiry });
      expect(status).toBe(200);
      const entry = emulator.outbox().at(-1);
      expect(entry?.expiresAt).toBeGreaterThanOrEqual(before + Number(expiry) * 1000);
      expect(entry?.expiresAt).toBeLessThanOrEqual(emulator.now() + Number(expiry) * 1000);
    }
  });

  it('defaults expiry to 300 s', async () => {
    await sendLink(emulator, { email: 'a@example.com' });
    const [entry] = emulator.outbox();
    expect(entry && entry.expiresAt - entry.createdAt).toBe(300_000);
  });
});

describe('outbox', () => {
  it('records one entry per channel, whose requestId is the request entry value', async () => {
    const redirectUri = 'https://app.test/cb?state=1';
    const { body } = await sendLink(emulator, {
      mobile_number: '919876543210',
      email: 'Jane@Example.com',
      redirect_uri: redirectUri,
      expiry: '60',
    });
    const outbox = emulator.outbox();
    expect(outbox).toHaveLength(2);
    const [mobile, email] = outbox;
    expect(mobile).toMatchObject({
      type: 'MOBILE',
      to: '919876543210',
      redirectUri,
      requestId: body.requestIds[0].value,
    });
    expect(email).toMatchObject({
      type: 'EMAIL',
      to: 'jane@example.com',
      redirectUri,
      requestId: body.requestIds[1].value,
    });
    for (const entry of outbox) {
      expect(entry.link).toMatch(new RegExp(`^${emulator.authUrl}/__emulator/link/[\\w-]{20,}$`));
      expect(entry.expiresAt - entry.createdAt).toBe(60_000);
      expect(entry.sessionToken.length).toBeGreaterThanOrEqual(40);
    }
    expect(mobile?.link).not.toBe(email?.link);
    expect(mobile?.sessionToken).not.toBe(email?.sessionToken);
  });

  it('keeps entries newest last and returns copies', async () => {
    await sendLink(emulator, { email: 'first@example.com' });
    await sendLink(emulator, { email: 'second@example.com' });
    const outbox = emulator.outbox();
    expect(outbox.map((entry) => entry.to)).toEqual(['first@example.com', 'second@example.com']);
    outbox[0]!.to = 'changed@example.com';
    expect(emulator.outbox()[0]?.to).toBe('first@example.com');
  });

  it('gives unguessable, distinct ids on every send', async () => {
    const values = new Set<string>();
    for (let i = 0; i < 20; i += 1) {
      const { body } = await sendLink(emulator, { email: `u${i}@example.com` });
      values.add(body.requestIds[0].value);
    }
    expect(values.size).toBe(20);
    const links = new Set(emulator.outbox().map((entry) => entry.link));
    expect(links.size).toBe(20);
  });
});

describe('log', () => {
  it('logs one line per link with the link, and never the secret or session token', async () => {
    await sendLink(emulator, { mobile_number: '919876543210', email: 'a@example.com' });
    expect(logged).toHaveLength(2);
    const outbox = emulator.outbox();
    outbox.forEach((entry, index) => {
      expect(logged[index]).toContain(entry.link);
      expect(logged[index]).not.toContain(entry.sessionToken);
    });
    expect(logged.join('\n')).not.toContain(CLIENT.clientSecret);
  });

  it('is silent when quiet', async () => {
    const lines: string[] = [];
    const quiet = await startEmulator({ quiet: true, log: (line) => lines.push(line) });
    try {
      const { status } = await sendLink(quiet, { email: 'a@example.com', redirect_uri: REDIRECT_URI });
      expect(status).toBe(200);
      expect(lines).toEqual([]);
    } finally {
      await quiet.close();
    }
  });
});
