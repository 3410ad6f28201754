import { once } from 'node:events';
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import supertest from 'supertest';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { isSafeLocalPath, isSameOriginPost } from '../../src/web/origin.js';
import { useSharedEmulator } from '../helpers/sharedEmulator.js';
import { requireLowRisk } from '../../src/index.js';
import { type Harness, loginVia, startHarness } from '../helpers/harness.js';
import type express from 'express';
import type { Emulator } from '../../src/emulator/index.js';
import { connect } from 'node:net';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer as createTlsServer, request as tlsRequest, type Server as TlsServer } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

// The same-origin check compares the whole origin, not the host alone: a page on `http://host`
// (which anyone on the network path can serve) is not `https://host`.
const pool = useSharedEmulator();
const { harness } = pool;

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
    // origin than the site's, one anyone on the network path can serve.
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

// Dot segments resolve to `//host`, a protocol-relative URL. A path that
// only becomes `//evil.test` once resolved must be refused like `//evil.test` itself.

/** Each resolves (in a URL parser, a browser, or a later redirect of the resolved path) off-site. */
const DOT_PAYLOADS = [
  '/.//evil.test',
  '/./\\evil.test',
  '/%2e//evil.test',
  '/%2E//evil.test',
  '/..//evil.test',
  '/%2e%2e//evil.test',
  '/.%2e//evil.test',
  '/a/..//evil.test',
  '/a/../..//evil.test',
  '/.//evil.test?x=1',
];

describe('isSafeLocalPath() and dot segments', () => {
  it.each(DOT_PAYLOADS)('refuses %j', (payload) => {
    expect(isSafeLocalPath(payload)).toBe(false);
  });

  it('each payload does resolve to another host once its path is used as a URL', () => {
    // Why they matter: the resolved path starts with `//`, which a redirect sends off-site.
    for (const payload of DOT_PAYLOADS.filter((p) => !p.includes('\\'))) {
      const resolved = new URL(payload, 'https://app.example').pathname;
      expect(resolved.startsWith('//'), payload).toBe(true);
      expect(new URL(resolved, 'https://app.example').host, payload).toBe('evil.test');
    }
  });

  it.each([
    '/',
    '/account',
    '/account/settings?tab=2#top',
    '/a.b/c..d/.well-known',
    '/files/%2e%2etxt',
    '/q?next=/..//x',
  ])('still accepts the plain path %j', (path) => {
    expect(isSafeLocalPath(path)).toBe(true);
  });

  it('refuses them as a guard loginUrl when the route is set up', () => {
    for (const payload of DOT_PAYLOADS)
      expect(() => requireLowRisk({ loginUrl: payload })).toThrow(/options\.loginUrl/);
  });

  it.each(DOT_PAYLOADS)('drops the returnTo %j after a real login (goes to the default instead)', async (payload) => {
    const h = await harness({
      authenticate: { successRedirect: undefined, successReturnToOrRedirect: '/me' },
      routes: (app) => {
        app.get('/protected', (req, res) => {
          (req.session as unknown as Record<string, unknown>).returnTo = payload;
          res.status(401).end();
        });
      },
    });
    const browser = h.browser();
    await browser.get('/protected');
    const res = await loginVia(h, browser, { email: 'dots@example.com' });
    expect(res.status).toBe(302);
    expect(res.headers.location).toBe('/me');
  });
});

// The origin checks' edges: what a browser,
// an attacker's page or an API client sees when it POSTs with odd Origin, Sec-Fetch-Site and
// Content-Type headers, and what a visitor sees when an async guard handler fails.

let emulator: Emulator;
beforeAll(async () => {
  emulator = pool.emulator();
});

type Headers = Record<string, string>;

/** POST /auth/magic-link with exactly these headers (no browser adds its own Origin). */
function send(h: Harness, headers: Headers, email: string) {
  const req = supertest(h.server).post('/auth/magic-link').set('accept', 'application/json');
  for (const [name, value] of Object.entries(headers)) req.set(name, value);
  if (!headers['content-type']) req.type('form');
  const json = /^application\/json/i.test(headers['content-type'] ?? '');
  return req.send(json ? JSON.stringify({ email }) : `email=${email}`);
}

/** A frontend token POSTed to the callback with exactly these headers. */
function postToken(h: Harness, headers: Headers, token: string) {
  const req = supertest(h.server).post('/auth/callback').type('form');
  for (const [name, value] of Object.entries(headers)) req.set(name, value);
  return req.send({ token });
}

describe('a malformed Origin is another site, never this one', () => {
  it.each(['http://[', 'http://', '://x', 'not a url at all'])(
    'send(): Origin %s is 403 CROSS_SITE',
    async (origin) => {
      const h = await pool.harness();
      const res = await send(h, { origin }, 'malformed@example.com');
      expect(res.status).toBe(403);
      expect(res.body.error.code).toBe('CROSS_SITE');
      expect(emulator.outbox().filter((e) => e.to === 'malformed@example.com')).toEqual([]);
    },
  );

  it('a frontend token with Origin http://[ logs nobody in (403)', async () => {
    const h = await pool.harness();
    const token = emulator.issueToken({ email: 'malformed-token@example.com' });
    const res = await postToken(h, { origin: 'http://[' }, token);
    expect(res.status).toBe(403);
    // The same token from this site still works: it was refused for its origin, not spent.
    expect((await postToken(h, { origin: h.baseUrl }, token)).status).toBe(302);
  });
});

describe('Origin: null, as browsers send it from no-referrer pages', () => {
  it('with Sec-Fetch-Site: same-origin, a form of this site: the link is sent', async () => {
    const h = await pool.harness();
    const res = await send(h, { origin: 'null', 'sec-fetch-site': 'same-origin' }, 'null-same@example.com');
    expect(res.status).toBe(200);
    expect(emulator.outbox().some((e) => e.to === 'null-same@example.com')).toBe(true);
  });

  it.each([
    ['alone', { origin: 'null' }],
    ['with Sec-Fetch-Site: cross-site', { origin: 'null', 'sec-fetch-site': 'cross-site' }],
    ['with Sec-Fetch-Site: same-site', { origin: 'null', 'sec-fetch-site': 'same-site' }],
  ])('%s: 403 CROSS_SITE', async (_name, headers: Headers) => {
    const h = await pool.harness();
    const res = await send(h, headers, 'null-other@example.com');
    expect(res.status).toBe(403);
    expect(res.body.error.code).toBe('CROSS_SITE');
  });

  it('a frontend token with Origin: null and Sec-Fetch-Site: same-origin logs in; without it, not', async () => {
    const h = await pool.harness();
    const refused = await postToken(h, { origin: 'null' }, emulator.issueToken({ email: 'null-a@example.com' }));
    expect(refused.status).toBe(403);
    const token = emulator.issueToken({ email: 'null-b@example.com' });
    const res = await postToken(h, { origin: 'null', 'sec-fetch-site': 'same-origin' }, token);
    expect(res.status).toBe(302);
  });
});

describe('Sec-Fetch-Site without Origin', () => {
  it('same-origin: the link is sent', async () => {
    const h = await pool.harness();
    expect((await send(h, { 'sec-fetch-site': 'same-origin' }, 'sfs-same@example.com')).status).toBe(200);
  });

  it.each(['same-site', 'cross-site', 'none'])('%s: 403 CROSS_SITE', async (site) => {
    const h = await pool.harness();
    const res = await send(h, { 'sec-fetch-site': site }, 'sfs-other@example.com');
    expect(res.status).toBe(403);
    expect(res.body.error.code).toBe('CROSS_SITE');
  });
});

describe('neither header: only a JSON body (which no other site can send without CORS) is let through', () => {
  it.each(['application/json', 'application/json; charset=utf-8', 'Application/JSON'])(
    'Content-Type %s: the link is sent',
    async (type) => {
      const h = await pool.harness();
      expect((await send(h, { 'content-type': type }, 'api@example.com')).status).toBe(200);
    },
  );

  it.each([
    // A form can send text/plain with any parameters: "application/json" later in the value is
    // not a JSON body.
    'text/plain; note=application/json',
    'text/plain',
    'application/x-www-form-urlencoded',
    'application/jsonp',
  ])('Content-Type %s: 403 CROSS_SITE, nothing sent', async (type) => {
    const h = await pool.harness();
    const res = await send(h, { 'content-type': type }, 'csrf-type@example.com');
    expect(res.status).toBe(403);
    expect(res.body.error.code).toBe('CROSS_SITE');
    expect(emulator.outbox().filter((e) => e.to === 'csrf-type@example.com')).toEqual([]);
  });
});

describe('redirect targets are paths of this site, up to 2,048 characters', () => {
  it('send({ successRedirect }) takes a 2,048-character path and refuses a 2,049-character one', async () => {
    const h = await pool.harness();
    expect(() => h.strategy.send({ successRedirect: `/${'a'.repeat(2047)}` })).not.toThrow();
    expect(() => h.strategy.send({ successRedirect: `/${'a'.repeat(2048)}` })).toThrow(TypeError);
  });
});

describe('an async guard handler that fails', () => {
  it("reaches the app's error handler: the visitor gets its 500, the request never hangs", async () => {
    const errors: unknown[] = [];
    const h = await pool.harness({
      strategy: { enrich: ['secureInfo'] },
      routes: (app: express.Express) => {
        const failing = async () => {
          throw new Error('the challenge page is down');
        };
        app.get('/pay', requireLowRisk({ onChallenge: failing as never }), (_req, res) => res.send('paid'));
        app.use((err: unknown, _req: express.Request, _res: express.Response, next: express.NextFunction) => {
          errors.push(err);
          next(err);
        });
      },
    });
    const browser = h.browser();
    expect((await loginVia(h, browser, { email: 'async-guard@example.com' }, 'vpn')).status).toBe(302);
    const res = await browser.get('/pay').set('accept', 'application/json');
    expect(res.status).toBe(500);
    expect(res.body.error.message).toBe('the challenge page is down');
    expect(errors).toHaveLength(1);
  });
});

// What a POST to
// send() gets (200, or 403 CROSS_SITE and nothing sent) for each header a browser, a proxy or a
// bare client may bring. Sent with node:http so `Host` and every header are exactly as given.

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
function sendJson(
  h: Harness,
  headers: Record<string, string>,
): Promise<{ status: number; code?: string; sent: boolean }> {
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
    req.end(JSON.stringify({ email: 'origin-headers@example.com' }));
  });
}

const refused = { status: 403, code: 'CROSS_SITE', sent: false };

describe('Sec-Fetch-Site other than same-origin refuses, whatever Origin says', () => {
  it.each(['cross-site', 'same-site', 'none'])(
    'Sec-Fetch-Site: %s with the site’s own Origin: 403',
    async (fetchSite) => {
      const h = await site('https://app.example/auth/callback');
      const res = await sendJson(h, {
        host: 'app.example',
        origin: 'https://app.example',
        'sec-fetch-site': fetchSite,
      });
      expect(res).toEqual(refused);
    },
  );

  it('Sec-Fetch-Site: cross-site without Origin on a JSON POST: 403 (only a bare client without either may send JSON)', async () => {
    const h = await site('https://app.example/auth/callback');
    expect(await sendJson(h, { host: 'app.example', 'sec-fetch-site': 'cross-site' })).toEqual(refused);
  });
});

describe('the request’s own origin takes its scheme from configuration, never from a header alone', () => {
  it('trust proxy on: X-Forwarded-Proto https makes https://<Host> the site’s own origin (200)', async () => {
    const h = await site('http://app.example/auth/callback', true);
    const res = await sendJson(h, {
      host: 'other.example',
      origin: 'https://other.example',
      'x-forwarded-proto': 'https',
    });
    expect(res.status).toBe(200);
    expect(res.sent).toBe(true);
    // And the page on http://other.example is another origin then: refused.
    expect(
      await sendJson(h, { host: 'other.example', origin: 'http://other.example', 'x-forwarded-proto': 'https' }),
    ).toEqual(refused);
  });

  it('trust proxy on: a forwarded scheme other than http or https is not believed (403)', async () => {
    const h = await site('http://app.example/auth/callback', true);
    const res = await sendJson(h, { host: 'other.example', origin: 'ftp://other.example', 'x-forwarded-proto': 'ftp' });
    expect(res).toEqual(refused);
  });

  it('trust proxy 0 (no hop trusted) is not trusting: a plain socket under an https site still refuses http://<Host>', async () => {
    const h = await site('https://app.example/auth/callback', 0);
    const res = await sendJson(h, { host: 'other.example', origin: 'http://other.example' });
    expect(res).toEqual(refused);
    expect((await sendJson(h, { host: 'other.example', origin: 'https://other.example' })).status).toBe(200);
  });

  it('trust proxy set to undefined (from an unset environment variable) is not trusting either', async () => {
    const h = await harness({
      strategy: { callbackUrl: 'https://app.example/auth/callback' },
      // As `app.set('trust proxy', process.env.TRUST_PROXY)` does where the variable is unset.
      routes: (app) => app.set('trust proxy', undefined),
    });
    expect(await sendJson(h, { host: 'other.example', origin: 'http://other.example' })).toEqual(refused);
    expect((await sendJson(h, { host: 'other.example', origin: 'https://other.example' })).status).toBe(200);
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

// isSafeLocalPath's first layer, each rule seen where an app meets
// it: a guard's `loginUrl` is refused when the route is set up. The check has two layers, string
// rules then a URL parse; the parse only confirms (no input the rules pass fails it, checked by
// a fuzz of 3 million paths), so each rule is tested here with an input only that rule refuses.

const setUp = (loginUrl: string) => () => requireLowRisk({ loginUrl });

describe('a guard loginUrl must be a plain absolute path on this site', () => {
  it.each([
    // Not starting with one slash: relative to whatever page the visitor is on, or another host.
    ['the empty string', ''],
    ['a relative path', 'account'],
    ['a relative path with a query', 'login?next=/'],
    ['a protocol-relative URL whose host parses as the checker’s own base', '//same-site.invalid/x'],
    // Characters browsers normalise or drop, and that no Location header may carry.
    ['a backslash', '/a\\b'],
    ['a header break', '/next\r\nSet-Cookie: a=b'],
    ['a NUL', '/a\u0000'],
    ['a DEL', '/a\u007f'],
    // Dot segments, even ones that resolve harmlessly: the rule is "none", not "none that escape".
    ['a .. segment', '/a/../b'],
    ['a . segment', '/./account'],
    ['an encoded .. segment', '/%2e%2e/account'],
    ['a trailing . segment', '/account/.'],
  ])('%s (%j) is refused at setup', (_name, loginUrl) => {
    expect(setUp(loginUrl)).toThrow(/options\.loginUrl/);
  });

  it.each(['/archive/v2.', '/a..', '/files/x.%2e', '/login', '/login?next=/a/../b'])(
    'a segment that only ends in dots is no dot segment: %j is accepted',
    (loginUrl) => {
      expect(setUp(loginUrl)).not.toThrow();
    },
  );
});

// An app that serves HTTPS itself, with no
// proxy in front and no `trust proxy`. Its own origin takes `https` from the TLS socket, even
// when the callback URL names another scheme. The certificate is made at test time by `openssl`
// (self-signed, for 127.0.0.1 only); without `openssl` these tests are skipped.

/** A throwaway self-signed certificate for 127.0.0.1, or `undefined` without `openssl`. */
function selfSignedCertificate(): { key: string; cert: string } | undefined {
  const dir = mkdtempSync(join(tmpdir(), 'otpless-tls-'));
  try {
    const key = join(dir, 'key.pem');
    const cert = join(dir, 'cert.pem');
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'ec',
        '-pkeyopt',
        'ec_paramgen_curve:prime256v1',
        '-nodes',
        '-days',
        '1',
        '-subj',
        '/CN=127.0.0.1',
        '-addext',
        'subjectAltName=IP:127.0.0.1',
        '-keyout',
        key,
        '-out',
        cert,
      ],
      { stdio: 'ignore' },
    );
    return { key: readFileSync(key, 'utf8'), cert: readFileSync(cert, 'utf8') };
  } catch {
    return undefined;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const certificate = selfSignedCertificate();

const servers: TlsServer[] = [];

afterEach(async () => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
});

/**
 * The harness app served over TLS on 127.0.0.1 as well. Its callback URL names plain http: only
 * the socket can say a request came over TLS.
 */
async function tlsSite(tls: { key: string; cert: string }): Promise<{ h: Harness; origin: string }> {
  const h = await harness({ strategy: { callbackUrl: 'http://app.example/auth/callback' } });
  const server = createTlsServer(tls, h.app).listen(0, '127.0.0.1');
  servers.push(server);
  await once(server, 'listening');
  return { h, origin: `https://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

/** A browser's JSON POST to send() over TLS from a page on `origin`: status, error code, whether a link went out. */
function sendOverTls(
  site: { h: Harness; origin: string },
  ca: string,
  origin: string,
): Promise<{ status: number; code?: string; sent: boolean }> {
  const before = site.h.emulator.outbox().length;
  return new Promise((resolve, reject) => {
    const req = tlsRequest(
      new URL('/auth/magic-link', site.origin),
      { method: 'POST', ca, headers: { origin, 'content-type': 'application/json', accept: 'application/json' } },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () => {
          const body = text ? (JSON.parse(text) as { error?: { code?: string } }) : {};
          resolve({
            status: res.statusCode ?? 0,
            code: body.error?.code,
            sent: site.h.emulator.outbox().length > before,
          });
        });
      },
    );
    req.on('error', reject);
    req.end(JSON.stringify({ email: 'tls-socket@example.com' }));
  });
}

describe.skipIf(!certificate)('an app serving HTTPS itself', () => {
  const tls = certificate ?? { key: '', cert: '' };

  it('a page of the site, https://<Host>, may send (200, a link goes out)', async () => {
    const site = await tlsSite(tls);
    expect(await sendOverTls(site, tls.cert, site.origin)).toEqual({ status: 200, code: undefined, sent: true });
  });

  it('a page on http://<Host>, posting to the TLS socket, is another origin: 403 CROSS_SITE, nothing sent', async () => {
    const site = await tlsSite(tls);
    const res = await sendOverTls(site, tls.cert, site.origin.replace('https:', 'http:'));
    expect(res).toEqual({ status: 403, code: 'CROSS_SITE', sent: false });
  });
});

// Login CSRF behind a TLS-terminating proxy: the app listens on plain HTTP behind a
// proxy hop on loopback that adds `X-Forwarded-Proto: https`, and the app does not set
// `trust proxy`. The site is https://app.example; a page on http://app.example (which anyone
// on the network path can serve) must not plant a pending login through send().

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
