import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { OK_BY_PATH } from './fixtures.js';

/** One request as it arrived on the socket. */
export interface CapturedRequest {
  method: string;
  path: string;
  query: Record<string, string>;
  /** Names in the case sent, e.g. `clientId`. */
  rawHeaderNames: string[];
  headers: IncomingHttpHeaders;
  body: string;
}

/** How to answer. Everything optional: by default 200 with the valid fixture of the path. */
export interface Reply {
  status?: number;
  /** A string is sent as is; anything else as JSON. */
  body?: unknown;
  headers?: Record<string, string>;
  /** Wait before the status line. */
  delayMs?: number;
  /** Send headers and the first byte of the body, then wait this long before the rest. */
  stallBodyMs?: number;
  /** Destroy the socket instead of answering (connection reset). */
  reset?: boolean;
  /** Stream this many bytes of JSON-ish filler without content-length (chunked). */
  chunkedBytes?: number;
}

export interface CaptureServer {
  /** `http://127.0.0.1:port` */
  url: string;
  requests: CapturedRequest[];
  /** TCP connections accepted so far. */
  connections(): number;
  reply(fn: (req: CapturedRequest) => Reply): void;
  close(): Promise<void>;
}

/**
 * A real HTTP server on port 0 that records every request and answers canned JSON: exact wire
 * assertions, request counting (proof that nothing was sent) and fault shapes the emulator
 * cannot produce (stalled body, chunked flood).
 */
export async function startCaptureServer(): Promise<CaptureServer> {
  const requests: CapturedRequest[] = [];
  let connections = 0;
  let replyFn: (req: CapturedRequest) => Reply = () => ({});
  const timers = new Set<NodeJS.Timeout>();
  const later = (ms: number, fn: () => void) => {
    const t = setTimeout(() => {
      timers.delete(t);
      fn();
    }, ms);
    timers.add(t);
  };

  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://x');
      const rawHeaderNames = req.rawHeaders.filter((_, i) => i % 2 === 0);
      const captured: CapturedRequest = {
        method: req.method ?? '',
        path: url.pathname,
        query: Object.fromEntries(url.searchParams),
        rawHeaderNames,
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      };
      requests.push(captured);
      const r = replyFn(captured);
      const answer = () => {
        if (r.reset) {
          req.socket.destroy();
          return;
        }
        const status = r.status ?? 200;
        const payload =
          r.body === undefined
            ? JSON.stringify(OK_BY_PATH[captured.path] ?? {})
            : typeof r.body === 'string'
              ? r.body
              : JSON.stringify(r.body);
        if (r.chunkedBytes !== undefined) {
          res.writeHead(status, { 'content-type': 'application/json', ...r.headers });
          let sent = 0;
          const piece = '"' + 'x'.repeat(16 * 1024) + '",';
          res.write('[');
          const pump = () => {
            while (sent < (r.chunkedBytes ?? 0)) {
              sent += piece.length;
              if (!res.write(piece)) return void res.once('drain', pump);
            }
            res.end('0]');
          };
          res.on('error', () => undefined);
          pump();
          return;
        }
        res.writeHead(status, {
          'content-type': 'application/json',
          'content-length': String(Buffer.byteLength(payload)),
          ...r.headers,
        });
        if (r.stallBodyMs !== undefined) {
          res.write(payload.slice(0, 1));
          later(r.stallBodyMs, () => res.end(payload.slice(1)));
          return;
        }
        res.end(payload);
      };
      if (r.delayMs) later(r.delayMs, answer);
      else answer();
    });
  });
  server.on('connection', () => connections++);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    connections: () => connections,
    reply: (fn) => {
      replyFn = fn;
    },
    close: async () => {
      for (const t of timers) clearTimeout(t);
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
