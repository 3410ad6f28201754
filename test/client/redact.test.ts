import diagnostics from 'node:diagnostics_channel';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isOtplessError } from '../../src/index.js';
import { OtplessClient } from '../../src/client/index.js';
import { type CaptureServer, startCaptureServer } from '../client/helpers/captureServer.js';
import { expectNoSecrets } from '../client/helpers/secrets.js';

// Finding 12 of issue #12: errors were redacted of four forms of a secret (raw, URL-encoded,
// form-encoded, JSON-escaped). A service or proxy that echoes it with lower-case percent
// escapes, or base64-encoded, got it through into `serviceMessage` and `description`.

// Characters that percent-encode (`/`, `+`, `=`, `?`, `&`, space in a form) and that differ
// between standard and URL-safe base64 (the bytes give `+` and `/` in standard base64).
const SECRET = 'Sh/h+S3cr3t=Val?&~>>';
const TOKEN = 'T0ken/+=abc?~>>45678';

/** The forms finding 12 names, each one a way a service might echo the value. */
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
beforeAll(async () => {
  server = await startCaptureServer();
  client = new OtplessClient({ clientId: 'id', clientSecret: SECRET, authUrl: server.url, userAuthUrl: server.url });
});
afterAll(async () => {
  await client.close();
  await server.close();
});

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
