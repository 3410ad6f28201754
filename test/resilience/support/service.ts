/**
 * Helpers around the real emulator: counting the calls that reach it, and making the valid
 * inputs (codes, tokens, session tokens) each endpoint needs.
 */
import diagnostics from 'node:diagnostics_channel';
import type { IncomingMessage, Server } from 'node:http';
import { ENDPOINTS, type EndpointName } from '../../../src/client/index.js';
import type { OtplessClient } from '../../../src/client/index.js';
import type { Emulator } from '../../../src/emulator/index.js';

const SERVICE_PATHS = new Set(Object.values(ENDPOINTS).map((e) => e.path));

/**
 * Counts requests to the six service endpoints as the emulator's servers receive them
 * (Node's `http.server.request.start` channel): independent of the client that sent them.
 */
export class ServiceCallCounter {
  readonly #ports: Set<number>;
  readonly byPath = new Map<string, number>();
  #total = 0;
  readonly #listener = (message: unknown) => {
    const { request, server } = message as { request: IncomingMessage; server: Server };
    const address = server.address();
    if (!address || typeof address === 'string' || !this.#ports.has(address.port)) return;
    const path = (request.url ?? '').split('?', 1)[0] ?? '';
    if (!SERVICE_PATHS.has(path)) return;
    this.#total++;
    this.byPath.set(path, (this.byPath.get(path) ?? 0) + 1);
  };

  constructor(emulator: Emulator) {
    this.#ports = new Set([emulator.authUrl, emulator.userAuthUrl].map((u) => Number(new URL(u).port)));
    diagnostics.subscribe('http.server.request.start', this.#listener);
  }

  get total(): number {
    return this.#total;
  }

  close(): void {
    diagnostics.unsubscribe('http.server.request.start', this.#listener);
  }
}

/** Opens a magic link like a browser (no redirect follow) and returns the code it carries. */
export async function codeFromLink(link: string): Promise<string> {
  const res = await fetch(link, { redirect: 'manual' });
  await res.body?.cancel();
  const location = res.headers.get('location');
  if (res.status !== 302 || !location) throw new Error(`link answered ${res.status}, not a redirect`);
  const code = new URL(location).searchParams.get('code');
  if (!code) throw new Error('the redirect carries no code');
  return code;
}

export interface FreshLogin {
  code: string;
  sessionToken: string;
  requestId: string;
}

let sent = 0;

/** A clicked, not yet verified login made through the client: its code and session token. */
export async function freshLogin(client: OtplessClient, emulator: Emulator, redirectUri: string): Promise<FreshLogin> {
  const email = `fresh-${process.pid}-${++sent}@example.com`;
  const { requestIds } = await client.sendMagicLink({ email, redirectUri });
  const requestId = requestIds[0]?.value;
  const entry = emulator.outbox().find((e) => e.requestId === requestId);
  if (!entry || !requestId) throw new Error('the emulator delivered no link');
  return { code: await codeFromLink(entry.link), sessionToken: entry.sessionToken, requestId };
}

/** The one call per endpoint the suites make, with an input valid for that endpoint. */
export type EndpointCall = (client: OtplessClient) => Promise<unknown>;

/**
 * Builds a valid call for `endpoint` (fresh code, token or session token each time) and
 * reports the sensitive values it uses through `sensitive`.
 */
export async function validCall(
  endpoint: EndpointName,
  client: OtplessClient,
  emulator: Emulator,
  redirectUri: string,
  sensitive: (...values: string[]) => void,
): Promise<EndpointCall> {
  switch (endpoint) {
    case 'sendMagicLink': {
      const email = `send-${process.pid}-${++sent}@example.com`;
      return (c) => c.sendMagicLink({ email, redirectUri });
    }
    case 'verifyCode': {
      const { code, sessionToken } = await freshLogin(client, emulator, redirectUri);
      sensitive(code, sessionToken);
      return (c) => c.verifyCode(code);
    }
    case 'sessionDetails': {
      const { code, sessionToken } = await freshLogin(client, emulator, redirectUri);
      const verified = await client.verifyCode(code);
      sensitive(code, sessionToken, verified.userDetails.token);
      return (c) => c.getSessionDetails(sessionToken);
    }
    default: {
      const token = emulator.issueToken({ email: `token-${process.pid}-${++sent}@example.com` });
      sensitive(token);
      if (endpoint === 'userInfo') return (c) => c.getUserInfo(token);
      if (endpoint === 'validateToken') return (c) => c.validateToken(token);
      return (c) => c.getSecureInfo(token);
    }
  }
}
