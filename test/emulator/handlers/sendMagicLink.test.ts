// Send magic link: validation like the service, one request id per send, channel, outbox entries, link log lines.
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { EMULATOR_WHATSAPP_NUMBER, startEmulator, type Emulator } from '../../../src/emulator/index.js';
import { CLIENT, click, codeOf, expectErrorShape, lastEntry, REDIRECT_URI, sendLink, verify } from '../helpers.js';

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
    ['no mobile_number and no email', {}, '7106'],
    ['empty mobile_number and email', { mobile_number: '', email: '  ' }, '7106'],
    ['mobile_number with plus', { mobile_number: '+919876543210' }, '7102'],
    ['mobile_number too short (6 digits)', { mobile_number: '919876' }, '7102'],
    ['mobile_number too long', { mobile_number: '9198765432101234' }, '7102'],
    ['mobile_number with letters', { mobile_number: '91987654321a' }, '7102'],
    ['mobile_number with leading zero', { mobile_number: '0919876543' }, '7102'],
    ['email without @', { email: 'jane.example.com' }, '7104'],
    ['email without domain dot', { email: 'jane@localhost' }, '7104'],
    ['email with spaces', { email: 'ja ne@example.com' }, '7104'],
    ['valid email, bad mobile', { email: 'a@example.com', mobile_number: '12' }, '7102'],
    ['expiry too small', { email: 'a@example.com', expiry: '29' }, '7113'],
    ['expiry too large', { email: 'a@example.com', expiry: '2592001' }, '7113'],
    ['expiry not an integer', { email: 'a@example.com', expiry: '60.5' }, '7113'],
    ['expiry negative', { email: 'a@example.com', expiry: '-60' }, '7113'],
    ['expiry not a number', { email: 'a@example.com', expiry: 'soon' }, '7113'],
    ['channel VIBER', { mobile_number: '919876543210', channel: 'VIBER' }, '7103'],
    ['channel EMAIL', { mobile_number: '919876543210', channel: 'EMAIL' }, '7103'],
    ['channel in lower case', { mobile_number: '919876543210', channel: 'sms' }, '7103'],
    ['channel unknown, e-mail only', { email: 'a@example.com', channel: 'PIGEON' }, '7103'],
  ];
  for (const [name, params, errorCode] of cases) {
    it(`answers 400 ${errorCode} for ${name}, and delivers nothing`, async () => {
      const { status, body } = await sendLink(emulator, params);
      expect(status).toBe(400);
      expectErrorShape(body, errorCode);
      expect(body.message).toBe('Invalid Request');
      expect(body.description).toMatch(/^Request error: /);
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

describe('request ids', () => {
  it('answers ONE request id shared by the MOBILE and EMAIL entries, destinationUri the service number', async () => {
    const { status, body } = await sendLink(emulator, { mobile_number: '919876543210', email: 'a@example.com' });
    expect(status).toBe(200);
    const [mobile, email] = body.requestIds;
    expect(mobile).toEqual({
      type: 'MOBILE',
      value: expect.any(String),
      destinationUri: `https://wa.me/${EMULATOR_WHATSAPP_NUMBER}`,
    });
    expect(email).toEqual({ type: 'EMAIL', value: mobile.value });
    // The service's number, never the user's.
    expect(mobile.destinationUri).not.toContain('9876543210');
    expect(emulator.outbox().map((entry) => entry.requestId)).toEqual([mobile.value, mobile.value]);
  });

  it('gives each channel its own request id with the separateRequestIds quirk', async () => {
    emulator.setQuirks({ separateRequestIds: true });
    const { body } = await sendLink(emulator, { mobile_number: '919876543210', email: 'a@example.com' });
    const [mobile, email] = body.requestIds;
    expect(mobile.value).not.toBe(email.value);
    expect(emulator.outbox().map((entry) => entry.requestId)).toEqual([mobile.value, email.value]);
  });
});

describe('channel', () => {
  it('defaults to WHATSAPP when absent or empty', async () => {
    for (const params of [{}, { channel: '' }]) {
      emulator.reset();
      const { status, body } = await sendLink(emulator, { mobile_number: '919876543210', ...params });
      expect(status).toBe(200);
      expect(body.requestIds[0].destinationUri).toBe(`https://wa.me/${EMULATOR_WHATSAPP_NUMBER}`);
      expect(emulator.outbox()[0]?.channel).toBe('WHATSAPP');
    }
  });

  it('sends by SMS when asked: an sms: destinationUri, SMS in the outbox, the log and the identity methods', async () => {
    const { status, body } = await sendLink(emulator, {
      mobile_number: '919876543210',
      email: 'a@example.com',
      channel: 'SMS',
    });
    expect(status).toBe(200);
    expect(body.requestIds[0]).toEqual({
      type: 'MOBILE',
      value: expect.any(String),
      destinationUri: expect.stringMatching(/^sms:\+\d+$/),
    });
    expect(body.requestIds[1]).toEqual({ type: 'EMAIL', value: body.requestIds[0].value });
    expect(emulator.outbox().map((entry) => [entry.type, entry.channel])).toEqual([
      ['MOBILE', 'SMS'],
      ['EMAIL', 'EMAIL'],
    ]);
    expect(logged[0]).toMatch(/^\[otpless-emulator\] SMS link to 919876543210/);
    const mobile = lastEntry(emulator, 'MOBILE');
    const verified = await verify(emulator, codeOf(await click(mobile.link)));
    expect(verified.body.userDetails.identities[0].methods).toEqual(['SMS']);
  });

  it('records WHATSAPP in the identity methods by default, and EMAIL for e-mail', async () => {
    await sendLink(emulator, { mobile_number: '919876543210', email: 'a@example.com', channel: 'WHATSAPP' });
    for (const [type, method] of [
      ['MOBILE', 'WHATSAPP'],
      ['EMAIL', 'EMAIL'],
    ] as const) {
      const verified = await verify(emulator, codeOf(await click(lastEntry(emulator, type).link)));
      expect(verified.body.userDetails.identities[0].methods).toEqual([method]);
    }
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
      channel: 'WHATSAPP',
      to: '919876543210',
      redirectUri,
      requestId: body.requestIds[0].value,
    });
    expect(email).toMatchObject({
      type: 'EMAIL',
      channel: 'EMAIL',
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

  it('is silent when quiet, even with a log', async () => {
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

  it('is quiet by default: nothing on the console unless log is given or quiet is false', async () => {
    const printed: unknown[] = [];
    const spy = vi.spyOn(console, 'log').mockImplementation((...args: unknown[]) => void printed.push(args));
    const silent = await startEmulator();
    const loud = await startEmulator({ quiet: false });
    try {
      expect((await sendLink(silent, { email: 'silent@example.com' })).status).toBe(200);
      expect(printed).toEqual([]);
      expect((await sendLink(loud, { email: 'loud@example.com' })).status).toBe(200);
      expect(JSON.stringify(printed)).toContain('loud@example.com');
      expect(JSON.stringify(printed)).not.toContain('silent@example.com');
    } finally {
      spy.mockRestore();
      await Promise.all([silent.close(), loud.close()]);
    }
  });
});
