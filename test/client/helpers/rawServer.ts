import { createServer, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { OK_BY_PATH } from './fixtures.js';

/** One request as the server read it in full. */
export interface RawRequest {
  /** 1 for the first TCP connection accepted, and so on. */
  connection: number;
  /** The request line, e.g. `POST /auth/v1/verify/code HTTP/1.1`. */
  line: string;
}

/** Answer a request, or drop its connection with a reset (RST) or a clean close (FIN). */
export type RequestAction = 'answer' | 'reset' | 'close';

export interface RawServer {
  /** `http://127.0.0.1:port` */
  url: string;
  requests: RawRequest[];
  /** TCP connections accepted so far. */
  connections(): number;
  /** What to do once a request was read in full: answer it (the default), reset or close the connection. */
  onRequest(fn: (request: RawRequest) => RequestAction): void;
  /** Resets (RST) every open connection now, as a proxy dropping idle connections does. */
  resetAll(): void;
  /** Closes (FIN) every open connection now, as a server's keep-alive timeout does. */
  endAll(): void;
  /** Stops accepting connections: a later connect is refused. */
  stopListening(): void;
  close(): Promise<void>;
}

/**
 * A keep-alive HTTP/1.1 server on raw sockets, for what `node:http` hides: closing or resetting
 * a connection at an exact moment from the server side. Reads `Content-Length` bodies only and
 * answers 200 with the valid fixture of the path.
 */
export async function startRawServer(): Promise<RawServer> {
  const requests: RawRequest[] = [];
  const open = new Set<Socket>();
  let connections = 0;
  let decide: (request: RawRequest) => RequestAction = () => 'answer';

  const server: Server = createServer((socket) => {
    const connection = ++connections;
    open.add(socket);
    socket.on('close', () => open.delete(socket));
    socket.on('error', () => undefined);
    let buffered = '';
    socket.on('data', (chunk: Buffer) => {
      buffered += chunk.toString('latin1');
      for (;;) {
        const end = buffered.indexOf('\r\n\r\n');
        if (end === -1) return;
        const head = buffered.slice(0, end);
        const length = Number(/\r\ncontent-length: *(\d+)/i.exec(head)?.[1] ?? 0);
        if (buffered.length < end + 4 + length) return;
        buffered = buffered.slice(end + 4 + length);
        const request = { connection, line: head.split('\r\n')[0] ?? '' };
        requests.push(request);
        const action = decide(request);
        if (action === 'reset') socket.resetAndDestroy();
        if (action === 'close') socket.destroy();
        if (action !== 'answer') return;
        const path = new URL(request.line.split(' ')[1] ?? '/', 'http://x').pathname;
        const body = JSON.stringify(OK_BY_PATH[path] ?? {});
        socket.write(
          `HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\n` +
            `connection: keep-alive\r\n\r\n${body}`,
        );
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    connections: () => connections,
    onRequest: (fn) => {
      decide = fn;
    },
    resetAll: () => {
      for (const socket of open) socket.resetAndDestroy();
    },
    endAll: () => {
      for (const socket of open) socket.end();
    },
    stopListening: () => {
      server.close();
    },
    close: async () => {
      for (const socket of open) socket.destroy();
      if (server.listening) await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
