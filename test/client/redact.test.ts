import diagnostics from 'node:diagnostics_channel';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isOtplessError } from '../../src/index.js';
import { OtplessClient } from '../../src/client/index.js';
import type { CaptureServer } from './helpers/captureServer.js';
import { useCaptureClient } from '../helpers/captureClient.js';
import { expectNoSecrets } from './helpers/secrets.js';

// Beyond the four plain forms of a secret (raw, URL-encoded, form-encoded, JSON-escaped): a
// service or proxy that echoes it with lower-case percent escapes, or base64-encoded, must not
// get it into `serviceMessage` or `description`.

// Characters that percent-encode (`/`, `+`, `=`, `?`, `&`, space in a form) and that differ
// between standard and URL-safe base64 (the bytes give `+` and `/` in standard base64).
const SECRET = 'Sh/h+S3cr3t=Val?&~>>';
const TOKEN = 'T0ken/+=abc?~>>45678';

/** Forms beyond the four plain ones, each one a way a service might echo the value. */
function echoForms(value: string): Record<string, string> {
  const upper = encodeURIComponent(value);
  const form = new URLSearchParams({ v: value }).toString().slice(2);
  const base64 = Buffer.from(value).toString('base64');
  return {
    'lower-case percent-encoding': upper.replace(/%[0-9A-F]{2}/g, (e) => e.toLowerCase()),
    'lower-case form encoding': form.replace(/%[0-9A-F]{2}/g, (e) => e.toLowerCase()),
    base64,
    'base64 without padding': base64.replace(/=+$/, ''),
    'url-safe base64': Buffer.from(value).toString('base64url'),
  };
}

let server: CaptureServer;
let client: OtplessClient;
useCaptureClient((s, c) => ((server = s), (client = c)), { clientSecret: SECRET });

describe('redaction of the secret and the token in every form a service may echo', () => {
  it('the test values really differ in each form (so each assertion means something)', () => {
    for (const value of [SECRET, TOKEN]) {
      const forms = Object.values(echoForms(value));
      expect(new Set([value, encodeURIComponent(value), ...forms]).size).toBe(forms.length + 2);
      expect(forms.some((f) => /%[0-9a-f]{2}/.test(f) && f !== f.toUpperCase())).toBe(true);
      expect(forms.some((f) => f.includes('+') || f.includes('/'))).toBe(true);
      expect(forms.some((f) => f.includes('-') || f.includes('_'))).toBe(true);
    }
  });

  for (const [name, value] of [
    ['client secret', SECRET],
    ['token', TOKEN],
  ] as const) {
    it.each(Object.entries(echoForms(value)))(`the ${name} echoed in %s never reaches the error`, async (_f, form) => {
      server.reply(() => ({
        status: 400,
        body: { message: `you sent ${form}`, description: `bad: ${form}.`, errorCode: `7${form}` },
      }));
      const err = await client.getUserInfo(TOKEN).catch((e: unknown) => e);
      expect(isOtplessError(err, 'API_ERROR')).toBe(true);
      expect((err as { serviceMessage: string }).serviceMessage).toContain('[redacted]');
      expectNoSecrets(err, [form]);
    });
  }
});

describe('the authorize call on undici\'s diagnostics channel (README, "Secrets in your APM")', () => {
  it("carries the secret in its query, and the README's subscriber records it without", async () => {
    const seen: string[] = [];
    const recorded: string[] = [];
    // As the README shows it: record the origin and the path without its query.
    const subscriber = (message: unknown) => {
      const { request } = message as { request: { origin: string; method: string; path: string } };
      seen.push(request.path);
      recorded.push(`${request.method} ${request.origin}${request.path.split('?')[0]}`);
    };
    diagnostics.subscribe('undici:request:create', subscriber);
    try {
      server.reply(() => ({}));
      await client.sendMagicLink({ email: 'apm@example.com', redirectUri: 'https://app.example/cb' });
    } finally {
      diagnostics.unsubscribe('undici:request:create', subscriber);
    }
    const authorize = seen.find((path) => path.startsWith('/auth/v1/authorize'));
    // What any APM agent subscribed to the channel sees: why the README warns about it.
    expect(authorize).toContain(`client_secret=${encodeURIComponent(SECRET)}`);
    expect(recorded).toContain(`GET ${server.url}/auth/v1/authorize`);
    for (const line of recorded) expectNoSecrets(line, [SECRET, encodeURIComponent(SECRET)]);
  });
});

// Hex, upper-case, double percent-encoding, HTML entities and base64 of a secret echoed by a
// service: each is echoed here by a real HTTP server
// and must not reach the error the client throws.

// Characters that every encoding below changes: `/ + = ? & ~ > ' "` and lower-case letters.
const ESCAPED_SECRET = `Sh/h+S3cr3t=Val?&~>'"x`;
const ESCAPED_TOKEN = `T0ken/+=abc?~>'"45678`;

function escapedForms(value: string): Record<string, string> {
  const once = encodeURIComponent(value);
  const html = value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
  return {
    hex: Buffer.from(value).toString('hex'),
    'upper-case hex': Buffer.from(value).toString('hex').toUpperCase(),
    'upper-cased value': value.toUpperCase(),
    'lower-cased value': value.toLowerCase(),
    'double percent-encoding': encodeURIComponent(once),
    'double percent-encoding of lower-case escapes': encodeURIComponent(
      once.replace(/%[0-9A-F]{2}/g, (e) => e.toLowerCase()),
    ),
    'HTML entities (&#39;)': html.replace(/'/g, '&#39;'),
    'HTML entities (&#x27;)': html.replace(/'/g, '&#x27;'),
    'HTML entities (&apos;)': html.replace(/'/g, '&apos;'),
    base64: Buffer.from(value).toString('base64'),
    'url-safe base64': Buffer.from(value).toString('base64url'),
  };
}

let escapeServer: CaptureServer;
let escapeClient: OtplessClient;
useCaptureClient((s, c) => ((escapeServer = s), (escapeClient = c)), { clientSecret: ESCAPED_SECRET });

describe('redaction of every form the docs name', () => {
  it('the test forms differ from the value and from each other', () => {
    for (const value of [ESCAPED_SECRET, ESCAPED_TOKEN]) {
      const forms = Object.values(escapedForms(value));
      expect(new Set([value, ...forms]).size).toBe(forms.length + 1);
    }
  });

  for (const [name, value] of [
    ['client secret', ESCAPED_SECRET],
    ['token', ESCAPED_TOKEN],
  ] as const) {
    it.each(Object.entries(escapedForms(value)))(
      `the ${name} echoed as %s never reaches the error`,
      async (_f, form) => {
        escapeServer.reply(() => ({
          status: 400,
          body: { message: `you sent ${form}`, description: `bad: ${form}.`, errorCode: '7101' },
        }));
        const err = await escapeClient.getUserInfo(ESCAPED_TOKEN).catch((e: unknown) => e);
        expect(isOtplessError(err, 'API_ERROR')).toBe(true);
        expect((err as { serviceMessage: string }).serviceMessage).toContain('[redacted]');
        expectNoSecrets(err, [form]);
      },
    );
  }
});

/** Each character of `value` that `keep` refuses, written by `escape`. */
function escapeEach(value: string, keep: RegExp, escape: (c: string) => string): string {
  return [...value].map((c) => (keep.test(c) ? c : escape(c))).join('');
}

/** Forms servers write that carry the value mixed into other text or escaped character by character. */
function escapedEchoes(value: string): Record<string, string> {
  const json = JSON.stringify(value).slice(1, -1);
  const hex2 = (c: string, upper: boolean) => {
    const h = c.charCodeAt(0).toString(16).padStart(4, '0');
    return `\\u${upper ? h.toUpperCase() : h}`;
  };
  const embedded = (before: string) =>
    Buffer.from(`${before}client_secret=${value}&grant_type=authorization_code`).toString('base64');
  return {
    "JSON with '\\/' (PHP's default)": json.replace(/\//g, '\\/'),
    'JSON \\u00XX escapes of every symbol (upper hex)': escapeEach(value, /[A-Za-z0-9]/, (c) => hex2(c, true)),
    'JSON \\u00XX escapes of every symbol (lower hex)': escapeEach(value, /[A-Za-z0-9]/, (c) => hex2(c, false)),
    'decimal HTML entities': escapeEach(value, /[A-Za-z0-9]/, (c) => `&#${c.charCodeAt(0)};`),
    'hex HTML entities': escapeEach(value, /[A-Za-z0-9]/, (c) => `&#x${c.charCodeAt(0).toString(16)};`),
    'inside a longer base64 string (offset 0)': embedded(''),
    'inside a longer base64 string (offset 1)': embedded('a'),
    'inside a longer base64 string (offset 2)': embedded('ab'),
  };
}

describe('redaction of escapes and of a secret inside longer encoded text', () => {
  // No `?` here: a query string is dropped whole, which would hide a leak of what precedes it.
  const PLAIN_SECRET = `Sh/h+S3cr3t=Val&~>'"x/y`;
  const PLAIN_TOKEN = `T0ken/+=abc~>'"45678/z`;
  let plain: OtplessClient;
  beforeAll(() => {
    plain = new OtplessClient({
      clientId: 'id',
      clientSecret: PLAIN_SECRET,
      authUrl: escapeServer.url,
      userAuthUrl: escapeServer.url,
    });
  });
  afterAll(() => plain.close());

  for (const [name, value] of [
    ['client secret', PLAIN_SECRET],
    ['token', PLAIN_TOKEN],
  ] as const) {
    it.each(Object.entries(escapedEchoes(value)))(
      `the ${name} echoed as %s never reaches the error`,
      async (_f, form) => {
        escapeServer.reply(() => ({
          status: 400,
          body: { message: `you sent ${form}`, description: `bad: ${form}.`, errorCode: '7101' },
        }));
        const err = await plain.getUserInfo(PLAIN_TOKEN).catch((e: unknown) => e);
        expect(isOtplessError(err, 'API_ERROR')).toBe(true);
        expect((err as { serviceMessage: string }).serviceMessage).toContain('[redacted]');
        const bytes = Buffer.from(value);
        // Every alignment of the value's own bytes in base64, and the value's longest part unescaped.
        const cores = [0, 1, 2].map((skip) => bytes.subarray(skip, skip + 12).toString('base64'));
        expectNoSecrets(err, [form, value, value.slice(0, 14), ...cores]);
      },
    );
  }
});
