// Mutation survivor of web/origin.ts (docs/testing.md): an app that serves HTTPS itself, with no
// proxy in front and no `trust proxy`. Its own origin takes `https` from the TLS socket, even
// when the callback URL names another scheme. The certificate is made at test time by `openssl`
// (self-signed, for 127.0.0.1 only); without `openssl` these tests are skipped.
import { execFileSync } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, request, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { useSharedEmulator } from '../helpers/sharedEmulator.js';
import type { Harness } from '../helpers/harness.js';

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
const { harness } = useSharedEmulator();

const servers: Server[] = [];

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
  const server = createServer(tls, h.app).listen(0, '127.0.0.1');
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
    const req = request(
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
