/**
 * The fault matrix: every endpoint x every way the service can fail, once at the client and
 * once through the real app (Express + Passport + cookie-session + MagicLinkStrategy).
 * test/client/OtplessClient.faults.test.ts and test/strategy/MagicLinkStrategy.callback.test.ts cover single cases in depth;
 * this file covers the whole grid, and checks that nothing hangs and the next call succeeds.
 */
import type express from 'express';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { isOtplessError, type MagicLinkProfile } from '../../src/index.js';
import { ENDPOINTS, OtplessClient, type EndpointName } from '../../src/client/index.js';
import { startEmulator, type Emulator, type FaultSpec } from '../../src/emulator/index.js';
import type { MagicLinkStrategyOptions } from '../../src/index.js';
import { CLIENT, clickLink, lastLinkTo, loginVia, startHarness, type Harness } from '../helpers/harness.js';
import { PATIENT_TIMEOUT_MS, SHORT_TIMEOUT_MS, ShortLimitOnce } from '../helpers/shortLimit.js';
import { validCall } from './support/service.js';
import { SuiteWatch } from './support/watch.js';

const watch = new SuiteWatch().install();
watch.sensitive(CLIENT.clientSecret);

/** The limit of the one call the emulator holds; it holds the answer far longer (HELD_MS). */
const TIMEOUT_MS = SHORT_TIMEOUT_MS;
/** Beyond TIMEOUT_MS by far; below the client's 10 s default, so an ignored limit would show. */
const HELD_MS = 8_000;
const MAX_BYTES = 64 * 1024;
const REDIRECT = 'http://127.0.0.1:9/auth/callback';

type Fault = Omit<FaultSpec, 'path' | 'times'>;
type ClientCode = 'TIMEOUT' | 'API_ERROR' | 'NETWORK' | 'BAD_RESPONSE';

interface FaultCase {
  name: string;
  fault: Fault;
  code: ClientCode;
  /** What our routes answer when a call the login needs fails this way. */
  routeStatus: 502 | 503 | 504;
}

const FAULTS: FaultCase[] = [
  { name: 'slow past the timeout', fault: { delayMs: HELD_MS }, code: 'TIMEOUT', routeStatus: 504 },
  { name: '429', fault: { status: 429 }, code: 'API_ERROR', routeStatus: 503 },
  { name: '500', fault: { status: 500 }, code: 'API_ERROR', routeStatus: 502 },
  { name: '503', fault: { status: 503 }, code: 'API_ERROR', routeStatus: 503 },
  { name: 'a reset connection', fault: { reset: true }, code: 'NETWORK', routeStatus: 502 },
  {
    name: 'broken JSON',
    fault: { status: 200, body: '{"requestId": "r", "userDetails": {' },
    code: 'BAD_RESPONSE',
    routeStatus: 502,
  },
  {
    name: 'JSON of the wrong shape',
    fault: { status: 200, body: { hello: 'world', requestIds: 'nope', userDetails: [] } },
    code: 'BAD_RESPONSE',
    routeStatus: 502,
  },
  { name: 'an empty body', fault: { status: 200, body: '' }, code: 'BAD_RESPONSE', routeStatus: 502 },
  // Two megabytes against a 64 KiB cap: the client must stop reading, not buffer it.
  {
    name: 'a huge body',
    fault: { status: 200, body: `{"pad":"${'x'.repeat(2 * 1024 * 1024)}"}` },
    code: 'BAD_RESPONSE',
    routeStatus: 502,
  },
];

const ENDPOINT_NAMES = Object.keys(ENDPOINTS) as EndpointName[];
const MATRIX = ENDPOINT_NAMES.flatMap((endpoint) => FAULTS.map((f) => [endpoint, f.name, f] as const));

let emulator: Emulator;
let client: OtplessClient;
/** The client that makes the held call: same service, short limit. */
let quick: OtplessClient;

beforeAll(async () => {
  // Not quiet: the emulator's log lines are part of what the secret search reads.
  emulator = await startEmulator({ clients: [CLIENT], quiet: false });
  client = new OtplessClient({
    ...CLIENT,
    authUrl: emulator.authUrl,
    userAuthUrl: emulator.userAuthUrl,
    timeoutMs: PATIENT_TIMEOUT_MS,
    maxResponseBytes: MAX_BYTES,
  });
  quick = new OtplessClient({
    ...CLIENT,
    authUrl: emulator.authUrl,
    userAuthUrl: emulator.userAuthUrl,
    timeoutMs: TIMEOUT_MS,
    maxResponseBytes: MAX_BYTES,
  });
});
afterEach(() => emulator.clearFaults());
afterAll(async () => {
  // The emulator first: it cancels the held answers, so no client waits for them.
  await emulator.close();
  await client.close();
  await quick.close();
  watch.uninstall();
});

const sensitive = (...values: string[]) => watch.sensitive(...values);

describe(`client: ${ENDPOINT_NAMES.length} endpoints x ${FAULTS.length} faults = ${MATRIX.length} cases`, () => {
  it.each(MATRIX)(
    '%s, %s: the right code (a hang would outlast the test), then the next call succeeds',
    async (endpoint, _name, f) => {
      const call = await validCall(endpoint, client, emulator, REDIRECT, sensitive);
      emulator.fault({ path: ENDPOINTS[endpoint].path, ...f.fault, times: 1 });

      // The held answer goes to the client with the short limit; every other fault is
      // answered at once, and the patient client's 30 s is beyond the test's own timeout.
      const err = await call(f.code === 'TIMEOUT' ? quick : client).then(
        () => undefined,
        (e: unknown) => e,
      );
      watch.error(err);
      expect(err, 'the call should fail').toBeDefined();
      expect(isOtplessError(err, f.code), `expected ${f.code}, got ${String(err)}`).toBe(true);
      if (f.code === 'API_ERROR') expect(err).toMatchObject({ status: f.fault.status, endpoint });
      else expect(err).toMatchObject({ endpoint });
      if (f.code === 'TIMEOUT') expect(err).toMatchObject({ timeoutMs: TIMEOUT_MS });

      const next = await validCall(endpoint, client, emulator, REDIRECT, sensitive);
      await expect(next(client)).resolves.toBeTypeOf('object');
    },
  );
});

// ---------------------------------------------------------------- through the app

const harnesses: Harness[] = [];
const appClients: OtplessClient[] = [];
let lastProfile: MagicLinkProfile | undefined;

/** Logs every error the app sees, the way an app's error handler usually does. */
function logErrors(app: express.Express): void {
  app.use((err: unknown, _req: express.Request, _res: express.Response, next: express.NextFunction) => {
    console.error('[app] request failed:', err);
    next(err);
  });
}

async function harness(
  strategy: Partial<MagicLinkStrategyOptions> = {},
  heldEndpoint?: EndpointName,
): Promise<Harness> {
  // A client of the app's own: small body cap, the short limit on the held call only.
  const appClient = new ShortLimitOnce(
    { ...CLIENT, authUrl: emulator.authUrl, userAuthUrl: emulator.userAuthUrl, maxResponseBytes: MAX_BYTES },
    heldEndpoint,
  );
  appClients.push(appClient);
  const h = await startHarness({
    emulator,
    strategy: {
      client: appClient,
      enrich: ['validateToken', 'secureInfo', 'userInfo'],
      ...strategy,
    },
    verify: async (profile) => {
      lastProfile = profile;
      watch.sensitive(profile._json.verification?.userDetails.token, profile._json.tokenValidation?.token);
      return { id: profile.id, email: profile.emails[0]?.value };
    },
    routes: logErrors,
  });
  harnesses.push(h);
  return h;
}

afterEach(async () => {
  await Promise.all(harnesses.splice(0).map((h) => h.close()));
  await Promise.all(appClients.splice(0).map((c) => c.close()));
});

let users = 0;
const nextEmail = (tag: string) => `${tag.toLowerCase()}-${++users}@example.com`;

/** Sends a link in `browser`, clicks it and returns the callback path (with its code). */
async function pendingCallback(h: Harness, browser: ReturnType<Harness['browser']>, email: string): Promise<string> {
  const sent = await browser.post('/auth/magic-link').set('accept', 'application/json').send({ email });
  expect(sent.status).toBe(200);
  const callback = await clickLink(lastLinkTo(h.emulator, email));
  watch.sensitive(new URL(callback, 'http://x').searchParams.get('code') ?? undefined);
  return callback;
}

/** A full login in the same browser succeeds and /me is this user. */
async function expectNextLoginWorks(h: Harness, browser: ReturnType<Harness['browser']>): Promise<void> {
  const email = nextEmail('next');
  const res = await loginVia(h, browser, { email });
  expect(res.status, JSON.stringify(res.body)).toBe(302);
  const me = await browser.get('/me');
  expect(me.status).toBe(200);
  expect(me.body.user.email).toBe(email);
}

const STRATEGY_ENDPOINTS = ['sendMagicLink', 'verifyCode', 'validateToken', 'secureInfo', 'userInfo'] as const;
const STRATEGY_MATRIX = STRATEGY_ENDPOINTS.flatMap((endpoint) => FAULTS.map((f) => [endpoint, f.name, f] as const));

describe(`app: ${STRATEGY_ENDPOINTS.length} endpoints the login calls x ${FAULTS.length} faults = ${STRATEGY_MATRIX.length} cases`, () => {
  it.each(STRATEGY_MATRIX)(
    '%s, %s: answered as specified, nobody logged in, the next login works',
    async (endpoint, _name, f) => {
      const h = await harness({}, f.code === 'TIMEOUT' ? endpoint : undefined);
      const browser = h.browser();
      const path = ENDPOINTS[endpoint].path;
      let res;
      if (endpoint === 'sendMagicLink') {
        emulator.fault({ path, ...f.fault, times: 1 });
        // A form post from a page: the error reaches the app's error handler.
        res = await browser
          .post('/auth/magic-link')
          .type('form')
          .set('accept', 'text/html')
          .send({ email: nextEmail('send') });
      } else {
        const callback = await pendingCallback(h, browser, nextEmail(endpoint));
        emulator.fault({ path, ...f.fault, times: 1 });
        lastProfile = undefined;
        res = await browser.get(callback);
      }
      watch.error(JSON.stringify(res.body));

      if (endpoint === 'userInfo') {
        // User info is a nicety (enrich.ts): the login goes on without it.
        expect(res.status).toBe(302);
        expect(lastProfile?._json.userInfo).toBeUndefined();
        expect((await browser.get('/me')).status).toBe(200);
        await browser.post('/logout');
      } else {
        expect(res.status).toBe(f.routeStatus);
        expect(res.body.error.code).toBe(
          { 502: 'SERVICE_ERROR', 503: 'SERVICE_UNAVAILABLE', 504: 'SERVICE_TIMEOUT' }[f.routeStatus],
        );
        expect((await browser.get('/me')).status).toBe(401);
      }
      await expectNextLoginWorks(h, browser);
    },
  );

  it('sessionDetails: the login never calls it (a fault armed on it is still armed after a full login)', async () => {
    const h = await harness();
    const browser = h.browser();
    emulator.fault({ path: ENDPOINTS.sessionDetails.path, status: 503, times: 1 });
    await expectNextLoginWorks(h, browser);
    const err = await client.getSessionDetails('probe-session-token').catch((e: unknown) => e);
    expect(err).toMatchObject({ code: 'API_ERROR', status: 503 });
  });

  it.each([
    [
      'invalid or used (400, 7118)',
      { status: 400, body: { errorCode: '7118', message: 'Request error: Invalid code' } },
      401,
    ],
    [
      'expired (401, 7301)',
      { status: 401, body: { errorCode: '7301', message: 'Request error: Token is expired' } },
      401,
    ],
    [
      'our credentials refused (401, 7002)',
      { status: 401, body: { errorCode: '7002', message: 'Authorization error' } },
      502,
    ],
  ] as const)('verifyCode answers %s: the callback answers %i', async (_name, fault, status) => {
    const h = await harness();
    const browser = h.browser();
    const callback = await pendingCallback(h, browser, nextEmail('rejected'));
    emulator.fault({ path: ENDPOINTS.verifyCode.path, ...fault, times: 1 });
    const res = await browser.get(callback);
    expect(res.status).toBe(status);
    expect((await browser.get('/me')).status).toBe(401);
    await expectNextLoginWorks(h, browser);
  });

  it('a code used twice is refused with 401 the second time', async () => {
    // 'accept': no binding stands in front, so the service itself refuses the used code.
    const h = await harness({ crossDevice: 'accept' });
    const browser = h.browser();
    const callback = await pendingCallback(h, browser, nextEmail('twice'));
    expect((await browser.get(callback)).status).toBe(302);
    await browser.post('/logout');
    // A new pending request, so the binding check passes and the service itself refuses the code.
    await browser
      .post('/auth/magic-link')
      .set('accept', 'application/json')
      .send({ email: nextEmail('twice') });
    expect((await browser.get(callback)).status).toBe(401);
    expect((await browser.get('/me')).status).toBe(401);
  });
});

describe('secrets and rejections', () => {
  it('the search itself finds a planted code, in any encoding, even inside a longer word', () => {
    const probe = new SuiteWatch();
    probe.sensitive('Zq3_kP9-xYw2Lm8Rt5Vb1Nc4');
    probe.lines.push('GET /cb?code=Zq3_kP9-xYw2Lm8Rt5Vb1Nc4 200', 'prefixZq3_kP9-xYw2Lm8Rt5Vb1Nc4suffix', 'clean line');
    probe.error(new Error('x', { cause: new Error('Zq3_kP9-xYw2Lm8Rt5Vb1Nc4') }));
    expect(probe.leaks().map((l) => l.where.split(':', 1)[0])).toEqual(['log line 0', 'log line 1', 'error 0']);
  });

  it('no log line or error of this file contains the secret, a code or a token; no unhandled rejection', () => {
    expect(watch.needleCount).toBeGreaterThan(100);
    expect(watch.lines.length).toBeGreaterThan(50);
    expect(watch.leaks()).toEqual([]);
    expect(watch.rejections).toEqual([]);
  });
});
