// Login CSRF behind a TLS-terminating proxy (issue #20): the app listens on plain HTTP behind a
// proxy hop on loopback that adds `X-Forwarded-Proto: https`, and the app does not set
// `trust proxy`. The site is https://app.example; a page on http://app.example (which anyone
// on the network path can serve) must not plant a pending login through send().
import { once } from 'node:events';
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from '../helpers/harness.js';

let h: Harness;
let proxy: Server;
let proxyUrl: string;

beforeAll(async () => {
  h = await startHarness({ strategy: { callbackUrl: 'https://app.example/auth/callback' } });
  const upstream = new URL(h.baseUrl);
  // The TLS terminator's plain hop: forwards as is, naming the scheme the browser used.
  proxy = createServer((req, res) => {
    const hop = request(
      {
        host: upstream.hostname,
        port: upstream.port,
        method: req.method,
        path: req.url,
        headers: { ...req.headers, 'x-forwarded-proto': 'https', 'x-forwarded-for': '203.0.113.9' },
      },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    hop.on('error', () => res.destroy());
    req.pipe(hop);
  }).listen(0, '127.0.0.1');
  await once(proxy, 'listening');
  proxyUrl = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise<void>((resolve) => proxy.close(() => resolve()));
  await h.close();
});

/** A browser's POST to send() through the proxy, as sent to https://app.example (node:http keeps `Host`). */
function sendThroughProxy(origin: string): Promise<{ status: number; body: { error?: { code?: string } } }> {
  const url = new URL('/auth/magic-link', proxyUrl);
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      {
        method: 'POST',
        headers: { host: 'app.example', origin, 'content-type': 'application/json', accept: 'application/json' },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text ? JSON.parse(text) : {} }));
      },
    );
    req.on('error', reject);
    req.end(JSON.stringify({ email: 'proxied@example.com' }));
  });
}

describe('send() behind a TLS-terminating proxy without trust proxy', () => {
  it('refuses Origin: http://app.example (403 CROSS_SITE), sends nothing', async () => {
    const before = h.emulator.outbox().length;
    const res = await sendThroughProxy('http://app.example');
    expect(res.status).toBe(403);
    expect(res.body.error?.code).toBe('CROSS_SITE');
    expect(h.emulator.outbox()).toHaveLength(before);
  });

  it('accepts the site’s own origin, https://app.example', async () => {
    const res = await sendThroughProxy('https://app.example');
    expect(res.status).toBe(200);
  });
});
