// Mutation survivors of web/origin.ts's same-origin check (docs/testing.md): what a POST to
// send() gets (200, or 403 CROSS_SITE and nothing sent) for each header a browser, a proxy or a
// bare client may bring. Sent with node:http so `Host` and every header are exactly as given.
import { connect } from 'node:net';
import { request } from 'node:http';
import { describe, expect, it } from 'vitest';
import { useSharedEmulator } from '../helpers/sharedEmulator.js';
import type { Harness } from '../helpers/harness.js';

const { harness } = useSharedEmulator();

/** The harness with the site at `callbackUrl`, and Express's `trust proxy` as given (unset: Express's default). */
async function site(callbackUrl: string, trustProxy?: unknown): Promise<Harness> {
  return harness({
    strategy: { callbackUrl },
    routes: (app) => {
      if (trustProxy !== undefined) app.set('trust proxy', trustProxy);
    },
  });
}

/** A JSON POST to send(), headers exactly as given; the status, the error code, and whether a link went out. */
function send(h: Harness, headers: Record<string, string>): Promise<{ status: number; code?: string; sent: boolean }> {
  const before = h.emulator.outbox().length;
  return new Promise((resolve, reject) => {
    const req = request(
      new URL('/auth/magic-link', h.baseUrl),
      { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json', ...headers } },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () => {
          const body = text ? (JSON.parse(text) as { error?: { code?: string } }) : {};
          resolve({ status: res.statusCode ?? 0, code: body.error?.code, sent: h.emulator.outbox().length > before });
        });
      },
    );
    req.on('error', reject);
    req.end(JSON.stringify({ email: 'origin-survivor@example.com' }));
  });
}

const refused = { status: 403, code: 'CROSS_SITE', sent: false };

describe('Sec-Fetch-Site other than same-origin refuses, whatever Origin says', () => {
  it.each(['cross-site', 'same-site', 'none'])(
    'Sec-Fetch-Site: %s with the site’s own Origin: 403',
    async (fetchSite) => {
      const h = await site('https://app.example/auth/callback');
      const res = await send(h, { host: 'app.example', origin: 'https://app.example', 'sec-fetch-site': fetchSite });
      expect(res).toEqual(refused);
    },
  );

  it('Sec-Fetch-Site: cross-site without Origin on a JSON POST: 403 (only a bare client without either may send JSON)', async () => {
    const h = await site('https://app.example/auth/callback');
    expect(await send(h, { host: 'app.example', 'sec-fetch-site': 'cross-site' })).toEqual(refused);
  });
});

describe('the request’s own origin takes its scheme from configuration, never from a header alone', () => {
  it('trust proxy on: X-Forwarded-Proto https makes https://<Host> the site’s own origin (200)', async () => {
    const h = await site('http://app.example/auth/callback', true);
    const res = await send(h, { host: 'other.example', origin: 'https://other.example', 'x-forwarded-proto': 'https' });
    expect(res.status).toBe(200);
    expect(res.sent).toBe(true);
    // And the page on http://other.example is another origin then: refused.
    expect(
      await send(h, { host: 'other.example', origin: 'http://other.example', 'x-forwarded-proto': 'https' }),
    ).toEqual(refused);
  });

  it('trust proxy on: a forwarded scheme other than http or https is not believed (403)', async () => {
    const h = await site('http://app.example/auth/callback', true);
    const res = await send(h, { host: 'other.example', origin: 'ftp://other.example', 'x-forwarded-proto': 'ftp' });
    expect(res).toEqual(refused);
  });

  it('trust proxy 0 (no hop trusted) is not trusting: a plain socket under an https site still refuses http://<Host>', async () => {
    const h = await site('https://app.example/auth/callback', 0);
    const res = await send(h, { host: 'other.example', origin: 'http://other.example' });
    expect(res).toEqual(refused);
    expect((await send(h, { host: 'other.example', origin: 'https://other.example' })).status).toBe(200);
  });

  it('trust proxy set to undefined (from an unset environment variable) is not trusting either', async () => {
    const h = await harness({
      strategy: { callbackUrl: 'https://app.example/auth/callback' },
      // As `app.set('trust proxy', process.env.TRUST_PROXY)` does where the variable is unset.
      routes: (app) => app.set('trust proxy', undefined),
    });
    expect(await send(h, { host: 'other.example', origin: 'http://other.example' })).toEqual(refused);
    expect((await send(h, { host: 'other.example', origin: 'https://other.example' })).status).toBe(200);
  });
});

describe('a request without Host has no origin of its own', () => {
  it('an HTTP/1.0 POST without Host, naming Origin http://undefined: 403', async () => {
    const h = await site('http://app.example/auth/callback');
    const { port } = new URL(h.baseUrl);
    const body = JSON.stringify({ email: 'no-host@example.com' });
    const answer = await new Promise<string>((resolve, reject) => {
      const socket = connect(Number(port), '127.0.0.1', () => {
        socket.end(
          'POST /auth/magic-link HTTP/1.0\r\n' +
            'Origin: http://undefined\r\nContent-Type: application/json\r\nAccept: application/json\r\n' +
            `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
        );
      });
      let text = '';
      socket.setEncoding('utf8');
      socket.on('data', (chunk: string) => (text += chunk));
      socket.on('end', () => resolve(text));
      socket.on('error', reject);
    });
    expect(answer).toMatch(/^HTTP\/1\.[01] 403 /);
    expect(answer).toContain('CROSS_SITE');
  });
});
