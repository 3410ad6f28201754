import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import supertest from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isSameOriginPost } from '../../src/web/origin.js';
import { useSharedEmulator } from '../helpers/sharedEmulator.js';

// Finding 5 of issue #12: the same-origin check compared the host alone, so a page on
// `http://host` (which anyone on the network path can serve) passed for `https://host`.
const { harness } = useSharedEmulator();

const CALLBACK = 'https://app.example/auth/callback';

/** POSTs to send() with the given Origin (and extra headers); returns the status. */
async function sendWithOrigin(
  h: Awaited<ReturnType<typeof harness>>,
  origin: string,
  headers: Record<string, string> = {},
): Promise<number> {
  const res = await supertest(h.server)
    .post('/auth/magic-link')
    .set({ accept: 'application/json', origin, ...headers })
    .send({ email: 'origin@example.com' });
  if (res.status === 403) expect(res.body).toMatchObject({ error: { code: 'CROSS_SITE' } });
  return res.status;
}

describe('send() compares the full origin: scheme, host and port', () => {
  it('accepts the callback URL’s origin and refuses the same host over the other scheme', async () => {
    const h = await harness({ strategy: { callbackUrl: CALLBACK } });
    expect(await sendWithOrigin(h, 'https://app.example')).toBe(200);
    expect(await sendWithOrigin(h, 'http://app.example')).toBe(403);
    expect(await sendWithOrigin(h, 'https://app.example:8443')).toBe(403);
  });

  it('without trust proxy, the request’s own origin has the callback URL’s scheme, not the socket’s', async () => {
    // The plain socket may sit behind a TLS-terminating proxy: `http://host` is then another
    // origin than the site's, one anyone on the network path can serve (issue #20).
    const h = await harness({ strategy: { callbackUrl: CALLBACK } });
    const host = new URL(h.baseUrl).host;
    expect(await sendWithOrigin(h, `http://${host}`)).toBe(403);
    expect(await sendWithOrigin(h, `https://${host}`)).toBe(200);
    // A header alone never decides the scheme: X-Forwarded-Proto counts only under trust proxy.
    expect(await sendWithOrigin(h, `http://${host}`, { 'x-forwarded-proto': 'http' })).toBe(403);
  });

  it('with an http callback URL (development), the request’s own origin is http', async () => {
    const h = await harness();
    const host = new URL(h.baseUrl).host;
    expect(await sendWithOrigin(h, `http://${host}`)).toBe(200);
    expect(await sendWithOrigin(h, `https://${host}`)).toBe(403);
  });

  it('behind a TLS proxy (trust proxy) takes the scheme from X-Forwarded-Proto', async () => {
    const h = await harness({ strategy: { callbackUrl: CALLBACK }, routes: (app) => app.set('trust proxy', true) });
    const host = new URL(h.baseUrl).host;
    const https = { 'x-forwarded-proto': 'https' };
    expect(await sendWithOrigin(h, `https://${host}`, https)).toBe(200);
    expect(await sendWithOrigin(h, `http://${host}`, https)).toBe(403);
    expect(await sendWithOrigin(h, `http://${host}`, { 'x-forwarded-proto': 'http' })).toBe(200);
  });
});

describe('isSameOriginPost() without Express (scheme from the callback URL)', () => {
  let server: ReturnType<typeof createServer>;
  let base: string;
  beforeAll(async () => {
    server = createServer((req, res) => {
      res.end(String(isSameOriginPost(req, CALLBACK)));
    }).listen(0, '127.0.0.1');
    await once(server, 'listening');
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  const post = async (origin: string) =>
    (await fetch(`${base}/`, { method: 'POST', headers: { origin }, body: '' })).text();

  it('a plain HTTP socket says nothing of the scheme: only https://host passes for an https callback', async () => {
    const host = new URL(base).host;
    expect(await post(`http://${host}`)).toBe('false');
    expect(await post(`https://${host}`)).toBe('true');
    expect(await post('https://app.example')).toBe('true');
    expect(await post('http://app.example')).toBe('false');
  });
});
