import { createServer } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isOtplessError } from '../../src/index.js';
import { OtplessClient } from '../../src/client/index.js';
import { type CaptureServer, type Reply, startCaptureServer } from './helpers/captureServer.js';
import { copy, verifyCodeOk } from './helpers/fixtures.js';
import { expectNoSecrets, needlesOf } from './helpers/secrets.js';

// Values with characters that encode differently in a query, a form and JSON.
const SECRET = 'Sh/h+S3cr3t=Val!';
const CODE = 'C0de/+=xyz-12345';
const TOKEN = 'T0ken/+=abc-45678';
const SESSION = 'Sess/+=789-token';
const NEEDLES = needlesOf(SECRET, CODE, TOKEN, SESSION);

let server: CaptureServer;
/** Patient: only the held answers below may time out, however busy the machine. */
let client: OtplessClient;
/** The client of the held answers: a 200 ms limit against answers held 8 s or more. */
let quick: OtplessClient;
const errors: { scenario: string; err: unknown }[] = [];

type Call = [string, (c: OtplessClient) => Promise<unknown>];
const CALLS: Call[] = [
  [
    'sendMagicLink',
    (c) =>
      c.sendMagicLink({
        email: 'ada@example.com',
        mobileNumber: '919876543210',
        redirectUri: 'https://example.com/cb',
      }),
  ],
  ['verifyCode', (c) => c.verifyCode(CODE)],
  ['getUserInfo', (c) => c.getUserInfo(TOKEN)],
  ['validateToken', (c) => c.validateToken(TOKEN)],
  ['getSecureInfo', (c) => c.getSecureInfo(TOKEN)],
  ['getSessionDetails', (c) => c.getSessionDetails(SESSION)],
];

/** A service that echoes everything it was sent back into its error body. */
function echoing(
  status: number,
): (req: { query: Record<string, string>; body: string; headers: Record<string, unknown> }) => Reply {
  return (req) => {
    const sent = `${JSON.stringify(req.query)} ${req.body} ${String(req.headers['clientsecret'])} ${decodeURIComponent(req.body)}`;
    return {
      status,
      body: {
        message: `bad request ${sent}`,
        errorCode: `7${SECRET}`,
        description: `see /x?client_secret=${encodeURIComponent(SECRET)}&token=${TOKEN}`,
      },
    };
  };
}

async function collect(scenario: string, c: OtplessClient, reply: Reply | ((req: never) => Reply)) {
  server.reply(typeof reply === 'function' ? (reply as never) : () => reply);
  for (const [name, call] of CALLS) {
    const err = await call(c).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(err, `${scenario} ${name} should fail`).toBeDefined();
    errors.push({ scenario: `${scenario} ${name}`, err });
  }
}

beforeAll(async () => {
  server = await startCaptureServer();
  client = new OtplessClient({
    clientId: 'id',
    clientSecret: SECRET,
    authUrl: server.url,
    userAuthUrl: server.url,
    timeoutMs: 30_000,
    maxResponseBytes: 32 * 1024,
  });
  quick = new OtplessClient({
    clientId: 'id',
    clientSecret: SECRET,
    authUrl: server.url,
    userAuthUrl: server.url,
    timeoutMs: 200,
    maxResponseBytes: 32 * 1024,
  });
});
afterAll(async () => {
  // The server first: it drops the held answers, so no client waits for them.
  await server.close();
  await client.close();
  await quick.close();
});

describe('no error ever contains the secret, a code or a token', () => {
  it('collects errors of every kind from every call', async () => {
    for (const status of [400, 401, 403, 429, 500, 503])
      await collect(`HTTP ${status} echoing`, client, echoing(status) as never);
    await collect('not JSON', client, { body: `oops ${SECRET} ${TOKEN}` });
    await collect('empty', client, { body: '' });
    await collect('wrong shape', client, { body: { requestId: TOKEN, userDetails: { token: 5, echo: SECRET } } });
    await collect('too large', client, { body: JSON.stringify({ pad: `${TOKEN}${'x'.repeat(40_000)}` }) });
    await collect('chunked flood', client, { chunkedBytes: 1_000_000 });
    await collect('timeout', quick, { delayMs: 8_000 });
    await collect('stalled body', quick, { stallBodyMs: 8_000 });
    await collect('reset', client, { reset: true });

    const probe = createServer();
    await new Promise<void>((r) => probe.listen(0, '127.0.0.1', r));
    const { port } = probe.address() as { port: number };
    await new Promise<void>((r) => probe.close(() => r()));
    const refused = new OtplessClient({
      clientId: 'id',
      clientSecret: SECRET,
      authUrl: `http://127.0.0.1:${port}`,
      userAuthUrl: `http://127.0.0.1:${port}`,
    });
    await collect('refused', refused, {});
    await refused.close();

    const closed = new OtplessClient({
      clientId: 'id',
      clientSecret: SECRET,
      authUrl: server.url,
      userAuthUrl: server.url,
    });
    await closed.close();
    await collect('closed', closed, {});

    // Invalid input that contains the value itself.
    for (const [name, call] of [
      ['code', () => client.verifyCode(`${CODE}\n`)],
      ['token', () => client.getUserInfo(`${TOKEN}\u0000`)],
      ['sessionToken', () => client.getSessionDetails(SESSION.repeat(400))],
      ['redirectUri', () => client.sendMagicLink({ email: 'a@example.com', redirectUri: `not a url ${TOKEN}` })],
      ['email', () => client.sendMagicLink({ email: `${TOKEN}@`, redirectUri: 'https://example.com' })],
    ] as const) {
      errors.push({ scenario: `input ${name}`, err: await call().catch((e: unknown) => e) });
    }

    // Constructor errors for a secret that is not allowed.
    try {
      new OtplessClient({ clientId: 'id', clientSecret: `${SECRET} ${TOKEN}` });
    } catch (err) {
      errors.push({ scenario: 'constructor', err });
    }

    const codes = new Set(errors.map(({ err }) => (err as { code?: string }).code));
    expect([...codes].sort()).toEqual(
      ['API_ERROR', 'BAD_RESPONSE', 'INVALID_ARGUMENT', 'NETWORK', 'TIMEOUT', undefined].sort(),
    );
  });

  it('searches message, stack, JSON, util.inspect and cause of each', () => {
    expect(errors.length).toBeGreaterThan(80);
    for (const { scenario, err } of errors) {
      try {
        expectNoSecrets(err, NEEDLES);
      } catch (e) {
        throw new Error(`${scenario}: ${(e as Error).message}`, { cause: e });
      }
    }
  });

  it('keeps what helps: status, errorCode and the redacted service text', () => {
    const api = errors.find(({ scenario }) => scenario === 'HTTP 400 echoing verifyCode')?.err;
    expect(isOtplessError(api, 'API_ERROR')).toBe(true);
    expect(api).toMatchObject({ status: 400, endpoint: 'verifyCode' });
    expect((api as { serviceMessage: string }).serviceMessage).toContain('[redacted]');
    const network = errors.find(({ scenario }) => scenario === 'refused verifyCode')?.err as Error;
    expect((network.cause as { code: string }).code).toBe('ECONNREFUSED');
  });

  it('a successful answer that happens to echo the token is returned as is (only errors are redacted)', async () => {
    server.reply(() => ({ body: copy(verifyCodeOk) }));
    await expect(client.verifyCode(CODE)).resolves.toMatchObject({ requestId: 'req-e-1' });
  });
});
