// Test harness for the emulator: plain fetch over real sockets (never the project's client).
import { EMULATOR_DEFAULT_CLIENT, type Emulator, type OutboxEntry } from '../../src/emulator/index.js';

export const CLIENT = EMULATOR_DEFAULT_CLIENT;
export const REDIRECT_URI = 'http://app.test/auth/callback';
export const SAFARI_UA =
  'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Safari/605.1.15';

export interface JsonResponse<T = Record<string, unknown>> {
  status: number;
  headers: Headers;
  body: T;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyJson = any;

async function asJson(response: Response): Promise<JsonResponse<AnyJson>> {
  const text = await response.text();
  return { status: response.status, headers: response.headers, body: text === '' ? undefined : JSON.parse(text) };
}

export function credentialHeaders(client: { clientId: string; clientSecret: string } = CLIENT): Record<string, string> {
  return { clientId: client.clientId, clientSecret: client.clientSecret };
}

/** POST a JSON body with header credentials (the default client unless `headers` overrides). */
export async function postJson(
  url: string,
  body: unknown,
  headers: Record<string, string> = credentialHeaders(),
): Promise<JsonResponse<AnyJson>> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  return asJson(response);
}

/** POST a form body (userInfo). */
export async function postForm(url: string, fields: Record<string, string>): Promise<JsonResponse<AnyJson>> {
  const response = await fetch(url, { method: 'POST', body: new URLSearchParams(fields) });
  return asJson(response);
}

export interface SendParams {
  mobile_number?: string;
  email?: string;
  redirect_uri?: string;
  expiry?: string;
  channel?: string;
  client_id?: string;
  client_secret?: string;
}

/** GET authorize with the default client and redirect URI unless overridden. */
export async function sendLink(emulator: Emulator, params: SendParams): Promise<JsonResponse<AnyJson>> {
  const query = new URLSearchParams({
    client_id: CLIENT.clientId,
    client_secret: CLIENT.clientSecret,
    redirect_uri: REDIRECT_URI,
    ...params,
  } as Record<string, string>);
  return asJson(await fetch(`${emulator.authUrl}/auth/v1/authorize?${query}`));
}

/** Opens a magic link like a browser would, without following the redirect. */
export async function click(link: string, options: { risk?: string; userAgent?: string } = {}): Promise<Response> {
  const url = options.risk ? `${link}?risk=${options.risk}` : link;
  return fetch(url, { redirect: 'manual', headers: options.userAgent ? { 'user-agent': options.userAgent } : {} });
}

/** The code from a click's redirect. */
export function codeOf(response: Response): string {
  const location = response.headers.get('location');
  if (!location) throw new Error(`no redirect (status ${response.status})`);
  const code = new URL(location).searchParams.get('code');
  if (!code) throw new Error(`no code in ${location}`);
  return code;
}

export function verify(
  emulator: Emulator,
  code: string,
  headers?: Record<string, string>,
): Promise<JsonResponse<AnyJson>> {
  return postJson(`${emulator.authUrl}/auth/v1/verify/code`, { code }, headers);
}

/** The newest outbox entry of a type. */
export function lastEntry(emulator: Emulator, type: 'MOBILE' | 'EMAIL' = 'EMAIL'): OutboxEntry {
  const entry = emulator
    .outbox()
    .filter((candidate) => candidate.type === type)
    .at(-1);
  if (!entry) throw new Error(`no ${type} entry in the outbox`);
  return entry;
}

/** The whole magic-link flow: send, click, verify. Returns the verify answer and the entry. */
export async function logIn(
  emulator: Emulator,
  params: SendParams = { email: 'jane.doe@example.com' },
  options: { risk?: string; userAgent?: string } = {},
): Promise<{ entry: OutboxEntry; verified: AnyJson; token: string }> {
  const sent = await sendLink(emulator, params);
  if (sent.status !== 200) throw new Error(`send failed: ${sent.status} ${JSON.stringify(sent.body)}`);
  const entry = lastEntry(emulator, params.mobile_number && !params.email ? 'MOBILE' : 'EMAIL');
  const code = codeOf(await click(entry.link, options));
  const verified = await verify(emulator, code);
  if (verified.status !== 200) throw new Error(`verify failed: ${verified.status} ${JSON.stringify(verified.body)}`);
  return { entry, verified: verified.body, token: verified.body.userDetails.token };
}

export function validateToken(emulator: Emulator, token: string, headers?: Record<string, string>) {
  return postJson(`${emulator.userAuthUrl}/auth/v1/validate/token`, { token }, headers);
}

export function secureInfo(emulator: Emulator, token: string, headers?: Record<string, string>) {
  return postJson(`${emulator.userAuthUrl}/auth/v1/secure-info`, { token }, headers);
}

export function sessionDetails(emulator: Emulator, sessionToken: string, headers?: Record<string, string>) {
  return postJson(`${emulator.userAuthUrl}/v1/sessions/get-session-details`, { sessionToken }, headers);
}

export function userInfo(emulator: Emulator, token: string | undefined, client = CLIENT) {
  return postForm(`${emulator.authUrl}/auth/userInfo`, {
    ...(token === undefined ? {} : { token }),
    client_id: client.clientId,
    client_secret: client.clientSecret,
  });
}

/** The short label a real error body puts in `message` (service-facts.md), by code. */
function serviceLabel(errorCode: string): string {
  if (errorCode === '7301') return 'Expired';
  if (/^702[0-4]$/.test(errorCode)) return 'Rate Limit Exceeded';
  if (/^70\d\d$/.test(errorCode)) return 'Access blocked';
  return 'Invalid Request';
}

/**
 * The service's error body: `message`, `errorCode` and `description`, all non-empty strings. A
 * service code (7xxx) has the service's short label in `message` and the detail in
 * `description`; an emulator-only code is `EMU-` plus a status or `FAULT`.
 */
export function expectErrorShape(body: unknown, errorCode: string): void {
  const error = body as Record<string, unknown>;
  if (typeof error?.message !== 'string' || error.message === '')
    throw new Error(`no message in ${JSON.stringify(body)}`);
  if (typeof error.description !== 'string' || error.description === '')
    throw new Error(`no description in ${JSON.stringify(body)}`);
  if (error.errorCode !== errorCode) throw new Error(`errorCode ${String(error.errorCode)}, expected ${errorCode}`);
  if (/^EMU-[A-Z0-9]+$/.test(errorCode)) return;
  if (!/^7\d{3}$/.test(errorCode)) throw new Error(`errorCode ${errorCode} is neither the service's nor EMU-*`);
  if (error.message !== serviceLabel(errorCode))
    throw new Error(`message "${error.message}", expected the label "${serviceLabel(errorCode)}"`);
}

export const MINUTE = 60 * 1000;
