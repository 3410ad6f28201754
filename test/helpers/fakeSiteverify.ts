import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/** What the stand-in received: the form fields of each verifying call. */
export interface SiteverifyCall {
  secret: string | null;
  response: string | null;
  remoteip: string | null;
}

/**
 * A local stand-in for a challenge provider's `siteverify` endpoint (Turnstile, hCaptcha and
 * reCAPTCHA share its shape): `{ success: true }` for the token 'person', `{ success: false }`
 * otherwise, HTTP 500 for 'provider-error', and, for 'score-X' (X a number), `{ success: true,
 * score: X }` as reCAPTCHA v3 and hCaptcha Enterprise answer (each reads it its own way).
 */
export async function startFakeSiteverify(): Promise<{
  url: string;
  calls: SiteverifyCall[];
  close(): Promise<void>;
}> {
  const calls: SiteverifyCall[] = [];
  const server = createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (body += chunk));
    req.on('end', () => {
      const form = new URLSearchParams(body);
      calls.push({ secret: form.get('secret'), response: form.get('response'), remoteip: form.get('remoteip') });
      const token = form.get('response');
      if (token === 'provider-error') {
        res.statusCode = 500;
        return res.end('oops');
      }
      res.setHeader('content-type', 'application/json');
      const scored = /^score-(.+)$/.exec(token ?? '');
      if (scored) return res.end(JSON.stringify({ success: true, score: Number(scored[1]) }));
      res.end(JSON.stringify({ success: token === 'person' }));
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/siteverify`,
    calls,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
