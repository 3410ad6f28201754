// Fault injection: status/body/headers answers, delays, socket resets, times, order, clearing.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ENDPOINTS } from '../../src/wire/endpoints.js';
import { startEmulator, type Emulator } from '../../src/emulator/index.js';
import { expectErrorShape, postForm, sendLink, userInfo, validateToken } from './helpers.js';

let emulator: Emulator;
let token: string;
beforeAll(async () => {
  emulator = await startEmulator({ quiet: true });
});
beforeEach(() => {
  emulator.reset();
  token = emulator.issueToken();
});
afterAll(() => emulator.close());

const VALIDATE = ENDPOINTS.validateToken.path;

describe('answers', () => {
  it('answers the status and JSON body once, then behaves normally', async () => {
    emulator.fault({ path: VALIDATE, status: 503, body: { message: 'Service down', errorCode: '5030' } });
    const faulted = await validateToken(emulator, token);
    expect(faulted.status).toBe(503);
    expect(faulted.body).toEqual({ message: 'Service down', errorCode: '5030' });
    expect(faulted.headers.get('content-type')).toMatch(/^application\/json/);
    expect((await validateToken(emulator, token)).status).toBe(200);
  });

  it('defaults the body to an emulator-only error body (EMU-FAULT), and status to 500', async () => {
    emulator.fault({ path: VALIDATE, status: 429, headers: { 'Retry-After': '7' } });
    const limited = await validateToken(emulator, token);
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toBe('7');
    expectErrorShape(limited.body, 'EMU-FAULT');

    emulator.fault({ path: VALIDATE });
    emulator.fault({ path: VALIDATE, headers: { 'x-test': '1' } });
    const plain = await validateToken(emulator, token);
    expect(plain.status).toBe(200);
    const only = await validateToken(emulator, token);
    expect(only.status).toBe(500);
    expectErrorShape(only.body, 'EMU-FAULT');

    emulator.fault({ path: VALIDATE, body: { odd: true } });
    const defaulted = await validateToken(emulator, token);
    expect(defaulted.status).toBe(500);
    expect(defaulted.body).toEqual({ odd: true });
  });

  it('sends a string body raw: empty, HTML, or huge', async () => {
    emulator.fault({ path: VALIDATE, status: 200, body: '' });
    const empty = await fetch(`${emulator.userAuthUrl}${VALIDATE}`, { method: 'POST' });
    expect(empty.status).toBe(200);
    expect(await empty.text()).toBe('');

    emulator.fault({
      path: VALIDATE,
      status: 502,
      body: '<html>Bad Gateway</html>',
      headers: { 'content-type': 'text/html' },
    });
    const html = await fetch(`${emulator.userAuthUrl}${VALIDATE}`, { method: 'POST' });
    expect(html.status).toBe(502);
    expect(html.headers.get('content-type')).toBe('text/html');
    expect(await html.text()).toBe('<html>Bad Gateway</html>');

    const huge = 'x'.repeat(5 * 1024 * 1024);
    emulator.fault({ path: VALIDATE, status: 200, body: huge });
    const big = await fetch(`${emulator.userAuthUrl}${VALIDATE}`, { method: 'POST' });
    expect(big.headers.get('content-type')).toMatch(/^text\/plain/);
    expect((await big.text()).length).toBe(huge.length);
  });

  it('applies to the path on any query, before credentials are checked', async () => {
    emulator.fault({ path: ENDPOINTS.sendMagicLink.path, status: 500 });
    const { status } = await sendLink(emulator, { email: 'a@example.com', client_secret: 'wrong' });
    expect(status).toBe(500);
    expect(emulator.outbox()).toEqual([]);
  });

  it.each([
    ['authRateLimited', 429, '7020'],
    ['rateLimited', 429, '7021'],
    ['identityRateLimited', 429, '7022'],
    ['ipRateLimited', 429, '7023'],
    ['appRateLimited', 429, '7024'],
    ['credentialsNotAllowed', 401, '7019'],
    ['smsNotEnabledForCountry', 401, '7025'],
    ['appNotAllowed', 403, '7026'],
    ['invalidEmailChannel', 400, '7105'],
    ['invalidRequestId', 400, '7119'],
  ] as const)('answers the service error %s as %i %s', async (error, status, errorCode) => {
    emulator.fault({ path: VALIDATE, error });
    const faulted = await validateToken(emulator, token);
    expect(faulted.status).toBe(status);
    expectErrorShape(faulted.body, errorCode);
    expect((await validateToken(emulator, token)).status).toBe(200);
  });

  it('lets status and body override parts of a service error, and applies the quirks to it', async () => {
    emulator.fault({ path: VALIDATE, error: 'ipRateLimited', status: 503 });
    const overridden = await validateToken(emulator, token);
    expect(overridden.status).toBe(503);
    expectErrorShape(overridden.body, '7023');

    emulator.setQuirks({ errorWith200: true });
    emulator.fault({ path: VALIDATE, error: 'expired' });
    const quirky = await validateToken(emulator, token);
    expect(quirky.status).toBe(200);
    expectErrorShape(quirky.body, '7301');
  });

  it('applies to userInfo (form endpoint)', async () => {
    emulator.fault({ path: ENDPOINTS.userInfo.path, status: 401, body: { message: 'Invalid secrets' } });
    expect(await userInfo(emulator, token)).toMatchObject({ status: 401, body: { message: 'Invalid secrets' } });
    expect((await userInfo(emulator, token)).status).toBe(200);
  });
});

describe('times and order', () => {
  it('applies `times` calls, then stops', async () => {
    emulator.fault({ path: VALIDATE, status: 500, times: 2 });
    const statuses = [];
    for (let i = 0; i < 3; i += 1) statuses.push((await validateToken(emulator, token)).status);
    expect(statuses).toEqual([500, 500, 200]);
  });

  it('applies Infinity times until clearFaults()', async () => {
    emulator.fault({ path: VALIDATE, status: 503, times: Infinity });
    for (let i = 0; i < 5; i += 1) expect((await validateToken(emulator, token)).status).toBe(503);
    emulator.clearFaults();
    expect((await validateToken(emulator, token)).status).toBe(200);
  });

  it('queues faults on one path in the order they were added, and leaves other paths alone', async () => {
    emulator.fault({ path: VALIDATE, status: 502 });
    emulator.fault({ path: VALIDATE, status: 504 });
    expect((await postForm(`${emulator.authUrl}${ENDPOINTS.userInfo.path}`, {})).status).toBe(401);
    expect((await validateToken(emulator, token)).status).toBe(502);
    expect((await validateToken(emulator, token)).status).toBe(504);
    expect((await validateToken(emulator, token)).status).toBe(200);
  });

  it('is cleared by reset()', async () => {
    emulator.fault({ path: VALIDATE, status: 500, times: 3 });
    emulator.reset();
    token = emulator.issueToken();
    expect((await validateToken(emulator, token)).status).toBe(200);
  });
});

describe('delays and resets', () => {
  it('delays the call, then answers normally', async () => {
    emulator.fault({ path: VALIDATE, delayMs: 300 });
    const started = performance.now();
    const { status } = await validateToken(emulator, token);
    expect(status).toBe(200);
    expect(performance.now() - started).toBeGreaterThanOrEqual(290);
  });

  it('lets a client time out on a long delay', async () => {
    emulator.fault({ path: VALIDATE, delayMs: 8_000 });
    const call = fetch(`${emulator.userAuthUrl}${VALIDATE}`, { method: 'POST', signal: AbortSignal.timeout(100) });
    await expect(call).rejects.toThrow(/abort|timeout/i);
  });

  it('destroys the socket on reset, then serves the next call', async () => {
    emulator.fault({ path: VALIDATE, reset: true });
    await expect(validateToken(emulator, token)).rejects.toThrow(/fetch failed/);
    expect((await validateToken(emulator, token)).status).toBe(200);
  });

  it('delays, then resets', async () => {
    emulator.fault({ path: VALIDATE, reset: true, delayMs: 200 });
    const started = performance.now();
    await expect(validateToken(emulator, token)).rejects.toThrow();
    expect(performance.now() - started).toBeGreaterThanOrEqual(190);
  });
});

describe('bad specs', () => {
  it('throws a TypeError naming the problem', () => {
    expect(() => emulator.fault({ path: 'auth/userInfo' })).toThrow(/path/);
    expect(() => emulator.fault({ path: VALIDATE, status: 99 })).toThrow(/status/);
    expect(() => emulator.fault({ path: VALIDATE, delayMs: -1 })).toThrow(/delayMs/);
    expect(() => emulator.fault({ path: VALIDATE, times: 0 })).toThrow(/times/);
    expect(() => emulator.fault({ path: VALIDATE, times: 1.5 })).toThrow(/times/);
    expect(() => emulator.fault({ path: VALIDATE, reset: true, status: 500 })).toThrow(/reset/);
    expect(() => emulator.fault({ path: VALIDATE, body: 42 as never })).toThrow(/body/);
    expect(() => emulator.fault({ path: VALIDATE, error: 'notFound' as never })).toThrow(/error/);
    expect(() => emulator.fault({ path: VALIDATE, error: 'expired', reset: true })).toThrow(/reset/);
  });
});

describe('base latency', () => {
  it('delays every service endpoint by baseDelayMs', async () => {
    const slow = await startEmulator({ quiet: true, baseDelayMs: 150 });
    try {
      const slowToken = slow.issueToken();
      // Lower bounds only: a timer never fires early, and load can only make it later.
      let started = performance.now();
      expect((await validateToken(slow, slowToken)).status).toBe(200);
      expect(performance.now() - started).toBeGreaterThanOrEqual(140);
      started = performance.now();
      expect((await userInfo(slow, slowToken)).status).toBe(200);
      expect(performance.now() - started).toBeGreaterThanOrEqual(140);
    } finally {
      await slow.close();
    }
  });

  it('does not delay the dev pages: they answer while a service call still waits', async () => {
    // A delay longer than the test's own timeout: a delayed dev page would fail the test.
    const slow = await startEmulator({ quiet: true, baseDelayMs: 60_000 });
    try {
      let serviceAnswered = false;
      const pending = validateToken(slow, slow.issueToken()).then(
        () => (serviceAnswered = true),
        () => undefined, // cut off by close() below
      );
      expect((await fetch(`${slow.authUrl}/__emulator/outbox`)).status).toBe(200);
      expect(serviceAnswered).toBe(false);
      await slow.close();
      await pending;
    } finally {
      await slow.close();
    }
  });
});

describe('notDelivered: the service answers, the message never arrives', () => {
  const SEND = ENDPOINTS.sendMagicLink.path;

  it('answers the send as usual, keeps the message out of the outbox, and says so in the dev inbox', async () => {
    emulator.fault({ path: SEND, notDelivered: 'WHATSAPP' });
    const sent = await sendLink(emulator, { mobile_number: '919812345678' });
    expect(sent.status).toBe(200);
    expect(sent.body).toMatchObject({ requestIds: [{ type: 'MOBILE', destinationUri: expect.any(String) }] });
    expect(emulator.outbox()).toEqual([]);
    const inbox = await (await fetch(`${emulator.authUrl}/`)).text();
    expect(inbox).toContain('not delivered');
    expect(inbox).toContain('+919812345678');
    expect(inbox).not.toContain('__emulator/link/');
    // Once: the next WhatsApp message arrives.
    await sendLink(emulator, { mobile_number: '919812345678' });
    expect(emulator.outbox().map((e) => e.channel)).toEqual(['WHATSAPP']);
  });

  it('a send by another channel leaves it armed, and SMS arrives', async () => {
    emulator.fault({ path: SEND, notDelivered: 'WHATSAPP', times: Infinity });
    await sendLink(emulator, { mobile_number: '919812345678', channel: 'SMS' });
    await sendLink(emulator, { mobile_number: '919812345678' });
    await sendLink(emulator, { mobile_number: '919812345678' });
    expect(emulator.outbox().map((e) => e.channel)).toEqual(['SMS']);
    emulator.clearFaults();
    await sendLink(emulator, { mobile_number: '919812345678' });
    expect(emulator.outbox().map((e) => e.channel)).toEqual(['SMS', 'WHATSAPP']);
  });

  it.each([
    [{ path: '/auth/v1/verify/code', notDelivered: 'WHATSAPP' }, /applies to the send only/],
    [{ path: '/auth/v1/authorize', notDelivered: 'TELEGRAM' }, /must be one of WHATSAPP, SMS, VIBER, EMAIL/],
    [{ path: '/auth/v1/authorize', notDelivered: 'SMS', status: 500 }, /takes only path and times/],
  ])('refuses %j', (spec, message) => {
    expect(() => emulator.fault(spec as never)).toThrow(message);
  });
});
