import { describe, expect, it } from 'vitest';
import { isOtplessError } from '../../src/index.js';
import { OtplessInputError } from '../../src/client/index.js';
import { OtplessClient } from '../../src/client/index.js';
import type { CaptureServer } from './helpers/captureServer.js';
import { useCaptureClient } from '../helpers/captureClient.js';

let server: CaptureServer;
let client: OtplessClient;
const redirectUri = 'https://example.com/login/callback';
const long = 'a'.repeat(4097);

useCaptureClient((s, c) => ((server = s), (client = c)));

async function rejectedField(call: () => Promise<unknown>): Promise<string> {
  const before = server.requests.length;
  const connectionsBefore = server.connections();
  const err: unknown = await call().then(
    () => {
      throw new Error('expected INVALID_ARGUMENT');
    },
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(OtplessInputError);
  expect(isOtplessError(err, 'INVALID_ARGUMENT')).toBe(true);
  // Nothing was sent, not even a connection opened.
  expect(server.requests.length).toBe(before);
  expect(server.connections()).toBe(connectionsBefore);
  return (err as OtplessInputError).field;
}

describe('sendMagicLink input is checked before any request', () => {
  it.each([
    ['input', undefined],
    ['input', null],
    ['email|mobileNumber', { redirectUri }],
    ['email', { email: 'not-an-email', redirectUri }],
    ['email', { email: 'a@b', redirectUri }],
    ['email', { email: 'a b@example.com', redirectUri }],
    ['email', { email: 'a@@example.com', redirectUri }],
    ['email', { email: 'a@example..com', redirectUri }],
    ['email', { email: 'a@example.com\n', redirectUri }],
    ['email', { email: 'ada\u202e@example.com', redirectUri }],
    ['email', { email: 'ada@exam\u200bple.com', redirectUri }],
    ['email', { email: 'ada\u0085@example.com', redirectUri }],
    ['email', { email: `${'a'.repeat(250)}@example.com`, redirectUri }],
    ['email', { email: 42, redirectUri }],
    ['email', { email: '', redirectUri }],
    ['mobileNumber', { mobileNumber: '98765', redirectUri }],
    ['mobileNumber', { mobileNumber: '1234567890123456', redirectUri }],
    ['mobileNumber', { mobileNumber: '91-98765-4321x', redirectUri }],
    ['mobileNumber', { mobileNumber: '++919876543210', redirectUri }],
    ['mobileNumber', { mobileNumber: 919876543210, redirectUri }],
    ['mobileNumber', { mobileNumber: long, redirectUri }],
    ['mobileNumber', { email: 'ada@example.com', mobileNumber: 'abc', redirectUri }],
    // Valid shapes, but no number of their country: refused before any call.
    ['mobileNumber', { mobileNumber: '12345678', redirectUri }],
    // An international prefix depends on where it was dialled (`002 1 268...` from Korea is +1 268...).
    ['mobileNumber', { mobileNumber: '0091 98765 43210', redirectUri }],
    ['mobileNumber', { mobileNumber: '+1 123 456 7890', redirectUri }],
    ['mobileNumber', { mobileNumber: '+44 7700 900123', redirectUri }],
    // Premium-rate and toll-free numbers get no link (SMS pumping earns on the first).
    ['mobileNumber', { mobileNumber: '+1 900 555 0100', redirectUri }],
    ['mobileNumber', { mobileNumber: '+1 800 555 0100', redirectUri }],
    // Look-alike digits and an extension are not digits of a number.
    [
      'mobileNumber',
      { mobileNumber: '+\uff19\uff11\uff19\uff18\uff17\uff16\uff15\uff14\uff13\uff12\uff11\uff10', redirectUri },
    ],
    ['mobileNumber', { mobileNumber: '+1 415 555 0123 ext. 5', redirectUri }],
    ['email', { email: 'ａda@example.com', redirectUri }],
    ['email', { email: 'josé@bücher.example', redirectUri }],
    ['redirectUri', { email: 'ada@example.com' }],
    ['redirectUri', { email: 'ada@example.com', redirectUri: '/relative/path' }],
    ['redirectUri', { email: 'ada@example.com', redirectUri: 'javascript:alert(1)' }],
    ['redirectUri', { email: 'ada@example.com', redirectUri: 'ftp://example.com/x' }],
    ['redirectUri', { email: 'ada@example.com', redirectUri: `https://example.com/${long}` }],
    ['redirectUri', { email: 'ada@example.com', redirectUri: 'https://example.com/\nx' }],
    ['expiry', { email: 'ada@example.com', redirectUri, expiry: 29 }],
    ['expiry', { email: 'ada@example.com', redirectUri, expiry: 2_592_001 }],
    ['expiry', { email: 'ada@example.com', redirectUri, expiry: 60.5 }],
    ['expiry', { email: 'ada@example.com', redirectUri, expiry: '300' }],
    ['expiry', { email: 'ada@example.com', redirectUri, expiry: Number.NaN }],
    ['channel', { mobileNumber: '919876543210', redirectUri, channel: 'VIBER' }],
    ['channel', { mobileNumber: '919876543210', redirectUri, channel: 'sms' }],
    ['channel', { mobileNumber: '919876543210', redirectUri, channel: '' }],
    ['channel', { mobileNumber: '919876543210', redirectUri, channel: null }],
    ['channel', { mobileNumber: '919876543210', redirectUri, channel: ['SMS'] }],
  ])('rejects %s: %j', async (field, input) => {
    expect(await rejectedField(() => client.sendMagicLink(input as never))).toBe(field);
  });

  it('the message names the field and never repeats the value', async () => {
    const err = await client
      .sendMagicLink({ email: 'secret-looking@@value', redirectUri })
      .catch((e: unknown) => e as Error);
    expect(err.message).toContain('email');
    expect(err.message).not.toContain('secret-looking');
  });
});

describe.each([
  ['verifyCode', 'code', (c: OtplessClient, v: unknown) => c.verifyCode(v as string)],
  ['getUserInfo', 'token', (c: OtplessClient, v: unknown) => c.getUserInfo(v as string)],
  ['validateToken', 'token', (c: OtplessClient, v: unknown) => c.validateToken(v as string)],
  ['getSecureInfo', 'token', (c: OtplessClient, v: unknown) => c.getSecureInfo(v as string)],
  ['getSessionDetails', 'sessionToken', (c: OtplessClient, v: unknown) => c.getSessionDetails(v as string)],
] as const)('%s input is checked before any request', (_name, field, call) => {
  it.each([[''], ['   '], [undefined], [null], [42], [{}], [long], ['abc\u0000def'], ['line\nbreak']])(
    'rejects %j',
    async (value) => {
      expect(await rejectedField(() => call(client, value))).toBe(field);
    },
  );
});

describe('valid edge values are accepted', () => {
  it('strips +, spaces, hyphens, brackets and dots of a mobile number; accepts expiry bounds', async () => {
    await client.sendMagicLink({ mobileNumber: '+91 98765-43210', redirectUri, expiry: 30 });
    expect(server.requests.at(-1)?.query.mobile_number).toBe('919876543210');
    // The strategy's send() and the client read numbers by one rule (contact/phone.ts).
    await client.sendMagicLink({ mobileNumber: '(91) 9876.543210', redirectUri });
    expect(server.requests.at(-1)?.query.mobile_number).toBe('919876543210');
    await client.sendMagicLink({
      mobileNumber: '14155550123',
      redirectUri: 'http://localhost:3000/cb',
      expiry: 2_592_000,
    });
    expect(server.requests.at(-1)?.query.mobile_number).toBe('14155550123');
    expect(server.requests.at(-1)?.query.expiry).toBe('2592000');
    await client.verifyCode('x'.repeat(4096));
  });

  it('sends the domain of an address in lower case and the local part as typed', async () => {
    await client.sendMagicLink({ email: 'Ada.Lovelace@Example.COM', redirectUri });
    expect(server.requests.at(-1)?.query.email).toBe('Ada.Lovelace@example.com');
  });

  it('sends an international address, when allowed, with its domain as punycode', async () => {
    await client.sendMagicLink({ email: 'josé@Bücher.example', redirectUri, allowInternationalEmail: true });
    expect(server.requests.at(-1)?.query.email).toBe('josé@xn--bcher-kva.example');
  });
});
