import { createServer } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { isOtplessError } from '../../src/index.js';
import {
  OtplessApiError,
  OtplessNetworkError,
  OtplessResponseError,
  OtplessTimeoutError,
} from '../../src/client/index.js';
import { OtplessClient } from '../../src/client/index.js';
import { type CaptureServer, type Reply, startCaptureServer } from './helpers/captureServer.js';
import { copy, verifyCodeOk } from './helpers/fixtures.js';

let server: CaptureServer;
let client: OtplessClient;
/** A client whose calls must not time out however busy the machine is. */
const PATIENT = 30_000;
/** The client of the timeout tests: its answers are held far longer than this. */
const TIMEOUT = 200;
let quick: OtplessClient;

beforeAll(async () => {
  server = await startCaptureServer();
  client = new OtplessClient({
    clientId: 'id',
    clientSecret: 'secret',
    authUrl: server.url,
    userAuthUrl: server.url,
    timeoutMs: PATIENT,
    maxResponseBytes: 64 * 1024,
  });
  quick = new OtplessClient({ clientId: 'id', clientSecret: 'secret', authUrl: server.url, timeoutMs: TIMEOUT });
});
afterEach(() => server.reply(() => ({})));
afterAll(async () => {
  // The server first: it drops the held answers, so the clients have nothing left to wait for.
  await server.close();
  await client.close();
  await quick.close();
});

async function failure(reply: Reply, call: () => Promise<unknown> = () => client.verifyCode('code-1')): Promise<Error> {
  server.reply(() => reply);
  return call().then(
    () => {
      throw new Error('expected the call to fail');
    },
    (err: unknown) => err as Error,
  );
}

describe('non-2xx answers are API_ERROR with the details of the body', () => {
  it.each([
    [400, '7102', 'Invalid phone number.'],
    [401, '7002', 'Authorization error: Invalid credentials'],
    [403, '7026', 'Forbidden'],
    [404, undefined, undefined],
    [429, undefined, 'Too many requests'],
    [500, undefined, undefined],
    [503, '503', 'Service unavailable'],
  ])('HTTP %i', async (status, errorCode, description) => {
    const err = await failure({ status, body: { message: 'Request error', errorCode, description } });
    expect(err).toBeInstanceOf(OtplessApiError);
    expect(isOtplessError(err, 'API_ERROR')).toBe(true);
    const api = err as OtplessApiError;
    expect(api).toMatchObject({
      code: 'API_ERROR',
      status,
      errorCode,
      description,
      serviceMessage: 'Request error',
      endpoint: 'verifyCode',
    });
    expect(api.message).toContain(`HTTP ${status}`);
  });

  it('the legacy userInfo body with message only', async () => {
    const err = await failure({ status: 400, body: { message: 'token is expired' } }, () =>
      client.getUserInfo('tok-123'),
    );
    expect(err).toMatchObject({
      code: 'API_ERROR',
      status: 400,
      errorCode: undefined,
      serviceMessage: 'token is expired',
      endpoint: 'userInfo',
    });
    expect(err.message).toContain('token is expired');
  });

  it.each([
    ['HTML', '<html><body>Bad gateway</body></html>'],
    ['empty', ''],
    ['a JSON array', '[1,2]'],
    ['JSON null', 'null'],
    ['fields of the wrong type', JSON.stringify({ message: 7, errorCode: { x: 1 }, description: ['a'] })],
  ])('tolerates a %s error body', async (_what, body) => {
    const err = await failure({ status: 502, body, headers: { 'content-type': 'text/html' } });
    expect(err).toMatchObject({
      code: 'API_ERROR',
      status: 502,
      errorCode: undefined,
      description: undefined,
      serviceMessage: undefined,
    });
  });

  it('a numeric errorCode becomes its string', async () => {
    expect(await failure({ status: 400, body: { errorCode: 7114 } })).toMatchObject({ errorCode: '7114' });
  });

  it('a 3xx is not followed: API_ERROR', async () => {
    expect(await failure({ status: 302, body: '', headers: { location: 'https://evil.example/' } })).toMatchObject({
      code: 'API_ERROR',
      status: 302,
    });
  });

  it('a huge error body is not read: API_ERROR without details', async () => {
    expect(await failure({ status: 500, body: JSON.stringify({ message: 'x'.repeat(200_000) }) })).toMatchObject({
      code: 'API_ERROR',
      status: 500,
      serviceMessage: undefined,
    });
  });
});

describe('a 2xx answer carrying the error shape is API_ERROR (some flows answer errors with 200)', () => {
  it.each([
    ['a string errorCode', { message: 'Request error', errorCode: '7128', description: 'Silent auth failed.' }, '7128'],
    ['a numeric errorCode', { message: 'Invalid Request', errorCode: 7101 }, '7101'],
  ])('%s', async (_what, body, errorCode) => {
    const err = await failure({ status: 200, body });
    expect(err).toBeInstanceOf(OtplessApiError);
    expect(err).toMatchObject({ code: 'API_ERROR', endpoint: 'verifyCode', status: 200, errorCode });
    expect(err.message).toContain(`HTTP 200 (errorCode ${errorCode})`);
  });

  it('for every call, with what the service echoed redacted', async () => {
    const err = await failure(
      { status: 200, body: { message: 'Invalid Request', errorCode: '7114', description: 'Bad token tok-secret-1' } },
      () => client.validateToken('tok-secret-1'),
    );
    expect(err).toMatchObject({ code: 'API_ERROR', endpoint: 'validateToken', status: 200, errorCode: '7114' });
    expect(JSON.stringify(err) + err.message).not.toContain('tok-secret-1');
    const info = await failure({ status: 200, body: { message: 'Expired', errorCode: '7301' } }, () =>
      client.getUserInfo('tok-2'),
    );
    expect(info).toMatchObject({ code: 'API_ERROR', endpoint: 'userInfo', status: 200, errorCode: '7301' });
  });

  it('a result that happens to carry an errorCode is still a result; an error shape without one is BAD_RESPONSE', async () => {
    server.reply(() => ({ body: { ...copy(verifyCodeOk), errorCode: '0' } }));
    await expect(client.verifyCode('code-1')).resolves.toMatchObject({ requestId: 'req-e-1' });
    const err = await failure({ status: 200, body: { message: 'Access blocked', description: 'No.' } });
    expect(err).toMatchObject({ code: 'BAD_RESPONSE' });
  });
});

describe('unusable 2xx answers are BAD_RESPONSE', () => {
  it.each([
    ['broken JSON', { body: '{"requestId": "r", ' }, 'not JSON'],
    ['an empty body', { body: '' }, 'empty body'],
    ['a JSON string', { body: '"hello"' }, 'expected an object'],
    [
      'a wrong shape',
      { body: { ...copy(verifyCodeOk), userDetails: { ...copy(verifyCodeOk).userDetails, token: 42 } } },
      'userDetails.token: expected a string',
    ],
    ['a missing field', { body: { requestId: 'r', message: 'ok' } }, 'userDetails: expected an object'],
    ['a 204', { status: 204, body: '' }, 'empty body'],
    [
      'a huge body (content-length)',
      { body: JSON.stringify({ pad: 'x'.repeat(100_000) }) },
      'larger than maxResponseBytes',
    ],
    ['a huge body (chunked)', { chunkedBytes: 5_000_000 }, 'larger than maxResponseBytes'],
  ] as [string, Reply, string][])('%s', async (_what, reply, text) => {
    const err = await failure(reply);
    expect(err).toBeInstanceOf(OtplessResponseError);
    expect(err).toMatchObject({ code: 'BAD_RESPONSE', endpoint: 'verifyCode' });
    expect(err.message).toContain(text);
  });

  it('the client keeps working after a huge body', async () => {
    await failure({ chunkedBytes: 5_000_000 });
    server.reply(() => ({}));
    await expect(client.verifyCode('again')).resolves.toMatchObject({ requestId: 'req-e-1' });
  });
});

describe('timeouts', () => {
  // Answers are held far beyond the 200 ms limit: these tests never race the clock.
  it('a slow status line is TIMEOUT at timeoutMs, not at the 10 s default', async () => {
    const started = performance.now();
    // 8 s: beyond 200 ms by far, yet before the default 10 s, so a client that ignored
    // timeoutMs would get the answer and succeed.
    const err = await failure({ delayMs: 8_000 }, () => quick.verifyCode('code-1'));
    expect(err).toBeInstanceOf(OtplessTimeoutError);
    expect(err).toMatchObject({ code: 'TIMEOUT', endpoint: 'verifyCode', timeoutMs: TIMEOUT });
    // A lower bound only (a timer never fires early; load can only make it later).
    expect(performance.now() - started).toBeGreaterThanOrEqual(TIMEOUT - 5);
  });

  it('a body that stalls after the headers is TIMEOUT too (the limit covers the whole request)', async () => {
    // The rest of the body would come after 60 s, beyond the test's own timeout: only a
    // deadline over the whole request ends this call.
    const err = await failure({ stallBodyMs: 60_000 }, () => quick.verifyCode('code-1'));
    expect(err).toMatchObject({ code: 'TIMEOUT' });
  });

  it('an error body that stalls still gives API_ERROR with the status, in time', async () => {
    // The status must arrive within the limit, so this limit is no race for it: 5 s for a local
    // answer's first line; the rest of the body would come after 60 s.
    const client5s = new OtplessClient({
      clientId: 'id',
      clientSecret: 'secret',
      authUrl: server.url,
      timeoutMs: 5_000,
    });
    try {
      const err = await failure({ status: 500, stallBodyMs: 60_000 }, () => client5s.verifyCode('code-1'));
      expect(err).toMatchObject({ code: 'API_ERROR', status: 500 });
    } finally {
      await client5s.close();
    }
  });
});

describe('network failures are NETWORK', () => {
  it('connection reset', async () => {
    const err = await failure({ reset: true });
    expect(err).toBeInstanceOf(OtplessNetworkError);
    expect(err).toMatchObject({ code: 'NETWORK', endpoint: 'verifyCode' });
    expect(err.cause).toBeInstanceOf(Error);
  });

  it('connection refused', async () => {
    // A port that was free a moment ago.
    const probe = createServer();
    await new Promise<void>((r) => probe.listen(0, '127.0.0.1', r));
    const { port } = probe.address() as { port: number };
    await new Promise<void>((r) => probe.close(() => r()));
    const refused = new OtplessClient({
      clientId: 'id',
      clientSecret: 'secret',
      authUrl: `http://127.0.0.1:${port}`,
      timeoutMs: PATIENT,
    });
    const err = await refused.verifyCode('c').catch((e: unknown) => e as Error);
    expect(err).toMatchObject({ code: 'NETWORK', endpoint: 'verifyCode' });
    expect(err.message).toContain(`127.0.0.1:${port}`);
    expect(err.message).toContain('ECONNREFUSED');
    expect((err.cause as { code?: string }).code).toBe('ECONNREFUSED');
    await refused.close();
  });

  it('a closed client', async () => {
    const closed = new OtplessClient({ clientId: 'id', clientSecret: 'secret', authUrl: server.url });
    await closed.close();
    expect(await closed.verifyCode('c').catch((e: unknown) => e)).toMatchObject({ code: 'NETWORK' });
  });
});

describe('wrong host', () => {
  it('a server that is not OTPless (404 HTML) gives API_ERROR, one answering other JSON gives BAD_RESPONSE', async () => {
    const err404 = await failure({ status: 404, body: '<h1>Not Found</h1>', headers: { 'content-type': 'text/html' } });
    expect(err404).toMatchObject({ code: 'API_ERROR', status: 404 });
    const other = await failure({ body: { hello: 'world' } });
    expect(other).toMatchObject({ code: 'BAD_RESPONSE' });
  });

  it('an unresolvable host name is NETWORK (or TIMEOUT), never anything else', async () => {
    const nowhere = new OtplessClient({
      clientId: 'id',
      clientSecret: 'secret',
      authUrl: 'http://no-such-host.invalid',
      timeoutMs: 3_000,
    });
    const err = await nowhere.verifyCode('c').catch((e: unknown) => e);
    expect(isOtplessError(err, 'NETWORK') || isOtplessError(err, 'TIMEOUT')).toBe(true);
    await nowhere.close();
  });
});
