// The 512-character code
// and 4,096-character token limits to the character, and the `flow` parameter, which must be a
// flow id (22 URL-safe characters, a string) or the link is refused before the service is asked.
import express from 'express';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { useSharedEmulator } from '../helpers/sharedEmulator.js';
import { clickLink, lastLinkTo } from '../helpers/harness.js';
import type { Harness, HarnessOptions } from '../helpers/harness.js';
import { startEmulator } from '../../src/emulator/index.js';
import type { Emulator } from '../../src/emulator/index.js';
import { Browser } from '../examples/helpers/browser.js';
import { linkTo } from '../examples/helpers/inbox.js';
import { CLIENT, HOSTS } from '../hosts/hosts.js';
import type { RunningHost } from '../hosts/hosts.js';

const shared = useSharedEmulator();

/**
 * The harness with `/check`: the callback through a custom callback (as an API app writes it),
 * so the answer carries the failure code a page would act on, not only passport's status.
 */
async function harness(options: HarnessOptions = {}): Promise<Harness> {
  const ref: { h?: Harness } = {};
  const h = await shared.harness({
    ...options,
    routes: (app) => {
      const check = (req: express.Request, res: express.Response, next: express.NextFunction) =>
        ref.h!.passport.authenticate(
          ref.h!.strategy.name,
          (err: unknown, user: unknown, info: { code?: string }, status: number) => {
            if (err) return next(err);
            res.status(user ? 200 : Number(status) || 401).json({ error: { code: user ? 'OK' : info?.code } });
          },
        )(req, res, next);
      app.get('/check', check);
      app.post('/check', express.urlencoded({ extended: false }), express.json(), check);
      // A GET whose body is parsed too: what a GET carries in its body must never count.
      app.get('/check-body', express.json(), check);
      // A POST route the app gave no body parser (Express 5 leaves `req.body` undefined).
      app.post('/check-raw', check);
    },
  });
  ref.h = h;
  return h;
}

/**
 * A POST to the app that asks for JSON, from `browser` (which names the app's origin, as the
 * app's own page does): a form, or a JSON body.
 */
function post(browser: ReturnType<Harness['browser']>, path: string, body: object, type: 'form' | 'json' = 'form') {
  return browser.post(path).set('accept', 'application/json').type(type).send(body);
}

const VERIFY = '/auth/v1/verify/code';
const VALIDATE = '/auth/v1/validate/token';
const FLOW_ID = 'A'.repeat(21) + '_';

/**
 * A browser with a send of its own, and the service's verify armed to fail (500, which the
 * callback answers 502): a 502 proves the code was handed to the service, a 400 that it never was.
 */
async function armed(h: Harness) {
  const browser = h.browser();
  await browser.post('/auth/magic-link').set('accept', 'application/json').send({ email: 'limits@example.com' });
  h.emulator.fault({ path: VERIFY, status: 500, times: 1 });
  return browser;
}

describe('the code limit is 512 characters, to the character', () => {
  it('a 512-character code is handed to the service; 513 is INVALID_CODE (400) and it is never asked', async () => {
    const h = await harness({ strategy: { crossDevice: 'refuse' } });
    const browser = await armed(h);
    const over = await browser.get(`/check?code=${'c'.repeat(513)}`);
    expect(over.status).toBe(400);
    expect(over.body.error.code).toBe('INVALID_CODE');
    const edge = await browser.get(`/check?code=${'c'.repeat(512)}`);
    expect(edge.status).toBe(502);
  });
});

describe('the token limit is 4,096 characters, to the character', () => {
  it('a 4,096-character token is handed to the service (refused there); 4,097 is INVALID_CODE unasked', async () => {
    const h = await harness();
    const browser = h.browser();
    h.emulator.fault({ path: VALIDATE, status: 500, times: 1 });
    const over = await post(browser, '/check', { token: 't'.repeat(4097) });
    expect(over.status).toBe(400);
    expect(over.body.error.code).toBe('INVALID_CODE');
    const edge = await post(browser, '/check', { token: 't'.repeat(4096) });
    expect(edge.status).toBe(502);
    expect((await browser.get('/me')).status).toBe(401);
  });
});

describe('the flow parameter must be a flow id, or the link is refused before any call', () => {
  it.each([
    ['21 characters', FLOW_ID.slice(1)],
    ['23 characters', `${FLOW_ID}A`],
    ['a character before a flow id', `!${FLOW_ID}`],
    ['a character after a flow id', `${FLOW_ID}!`],
    ['a character outside base64url', `${FLOW_ID.slice(1)}+`],
  ])('%s: INVALID_CODE (400), the service never asked', async (_name, flow) => {
    const h = await harness({ strategy: { crossDevice: 'refuse' } });
    const browser = await armed(h);
    const res = await browser.get(`/check?code=abc&flow=${encodeURIComponent(flow)}`);
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('INVALID_CODE');
    // The fault is still armed: the service was never asked.
    expect((await browser.get('/check?code=probe-code')).status).toBe(502);
  });

  it('the query is everything after the first `?`: a flow id followed by a raw `?` is INVALID_CODE', async () => {
    const h = await harness({ strategy: { crossDevice: 'refuse' } });
    const browser = await armed(h);
    const res = await browser.get(`/check?code=abc&flow=${FLOW_ID}?`);
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('INVALID_CODE');
  });

  it('a flow id inside an array (a JSON body) is INVALID_CODE, never read as the id', async () => {
    const h = await harness({ strategy: { crossDevice: 'refuse' } });
    const browser = await armed(h);
    const res = await post(browser, '/check', { code: 'abc', flow: [FLOW_ID] }, 'json');
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('INVALID_CODE');
  });

  it('a well-formed flow id of no send here is not an input error: WRONG_BROWSER (403) under crossDevice refuse', async () => {
    const h = await harness({ strategy: { crossDevice: 'refuse' } });
    const browser = await armed(h);
    const res = await browser.get(`/check?code=abc&flow=${FLOW_ID}`);
    expect(res.status).toBe(403);
    expect(res.body.error.code).toBe('WRONG_BROWSER');
  });
});

/** A browser that asked for a link, and the `code` and `flow` the link brought back to it. */
async function delivered(h: Harness, to: string) {
  const browser = h.browser();
  const sent = await browser.post('/auth/magic-link').set('accept', 'application/json').send({ email: to });
  expect(sent.status).toBe(200);
  const back = new URL(await clickLink(lastLinkTo(h.emulator, to)), h.baseUrl).searchParams;
  return { browser, code: back.get('code')!, flow: back.get('flow')! };
}

describe('where the callback reads its input', () => {
  it('a POST carrying both a token and a code is INVALID_CODE (400): which one was meant cannot be known', async () => {
    const h = await harness();
    const { browser, code, flow } = await delivered(h, 'both@example.com');
    const token = h.emulator.issueToken({ email: 'both@example.com' });
    for (const res of [
      await post(browser, '/check', { token, code, flow }),
      await post(browser, `/check?code=${code}`, { token }),
    ]) {
      expect(res.status).toBe(400);
      expect(res.body.error.code).toBe('INVALID_CODE');
    }
    // The token was not spent: alone, it is accepted.
    expect((await post(browser, '/check', { token })).body.error.code).toBe('OK');
  });

  it("a POST's code is read from its body before the query, its flow from the query before the body", async () => {
    const h = await harness();
    const first = await delivered(h, 'body-code@example.com');
    const bodyFirst = await post(
      first.browser,
      '/check?code=not-the-code',
      { code: first.code, flow: first.flow },
      'json',
    );
    expect(bodyFirst.status).toBe(200);
    expect(bodyFirst.body.error.code).toBe('OK');
    const second = await delivered(h, 'query-flow@example.com');
    const queryFirst = await post(
      second.browser,
      `/check?flow=${second.flow}`,
      { code: second.code, flow: 'not a flow' },
      'json',
    );
    expect(queryFirst.status).toBe(200);
    expect(queryFirst.body.error.code).toBe('OK');
  });

  it('a GET reads neither a token nor a flow from a body: the token stays unspent, a bad flow there is ignored', async () => {
    const h = await harness({ strategy: { crossDevice: 'refuse' } });
    const { browser, code } = await delivered(h, 'get-body@example.com');
    const token = h.emulator.issueToken({ email: 'get-body@example.com' });
    const withToken = await browser.get('/check-body').set('accept', 'application/json').send({ token });
    // Read as a callback with nothing in it, not as a token the origin check then refuses.
    expect(withToken.status).toBe(400);
    expect(withToken.body.error.code).toBe('INVALID_CODE');
    // No flow in the query: the body's is not read, so the code is bound by the service's request id.
    const badFlow = await browser.get(`/check-body?code=${code}`).send({ flow: 'not a flow' });
    expect(badFlow.status).toBe(200);
    expect(badFlow.body.error.code).toBe('OK');
    // The token a GET body carried was never handed to the service: POSTed, it signs in.
    const posted = await post(h.browser(), '/check', { token });
    expect(posted.body.error.code).toBe('OK');
  });
});

describe('a POST to a callback route without a body parser', () => {
  it.each([
    ['reads the code and flow from the query, and signs in: no body is not a crash', true],
    ['without a flow in the query either: the code is bound by the request id, and signs in', false],
  ])('%s', async (_name, withFlow) => {
    const h = await harness();
    const { browser, code, flow } = await delivered(h, `no-parser-${String(withFlow)}@example.com`);
    // The form's fields are never parsed: only the query counts.
    const res = await post(browser, `/check-raw?code=${code}${withFlow ? `&flow=${flow}` : ''}`, {
      code: 'ignored, never parsed',
      flow: 'ignored, never parsed',
    });
    expect(res.status).toBe(200);
    expect(res.body.error.code).toBe('OK');
  });
});

// Connect parses
// no query, so the strategy reads `code` and `flow` from the URL itself, and must refuse a
// repeated parameter there as Express's parsed query does.

describe('on plain Connect', () => {
  const connectHost = HOSTS.find((host) => host.id === 'connect')!;

  let emulator: Emulator;
  let app: RunningHost;
  beforeAll(async () => {
    emulator = await startEmulator({ clients: [CLIENT], quiet: true });
    app = await connectHost.start(emulator, { crossDevice: 'refuse' });
  });
  afterEach(() => emulator.clearFaults());
  afterAll(async () => {
    await app?.close();
    await emulator?.close();
  });

  /** A browser that asked for a link on the Connect app, and the link's `code` and `flow`. */
  async function delivered(to: string) {
    const browser = new Browser(app.url);
    expect((await browser.postJson('/auth/magic-link', { email: to })).status).toBe(200);
    const redirect = await browser.get(linkTo(emulator, to));
    const back = new URL(redirect.location!).searchParams;
    return { browser, code: back.get('code')!, flow: back.get('flow')! };
  }

  const me = async (browser: Browser) => (await browser.get('/me', { accept: 'application/json' })).json();

  describe('the callback on plain Connect reads the query from the URL', () => {
    it('a repeated code or flow is refused (400) before the service is asked; the link then still signs in', async () => {
      const { browser, code, flow } = await delivered('connect-twice@example.com');
      emulator.fault({ path: '/auth/v1/verify/code', status: 500, times: 1 });
      for (const query of [`code=${code}&code=${code}&flow=${flow}`, `code=${code}&flow=${flow}&flow=${flow}`]) {
        const res = await browser.get(`/auth/callback?${query}`);
        expect(res.status).toBe(400);
        expect(await me(browser)).toEqual({ user: null });
      }
      // The fault is still armed: neither reached the service.
      expect((await browser.get(`/auth/callback?code=${code}&flow=${flow}`)).status).toBe(502);
    });

    it('other parameters, repeated or not, change nothing: the link signs in', async () => {
      const { browser, code, flow } = await delivered('connect-utm@example.com');
      const res = await browser.get(`/auth/callback?utm=a&utm=b&code=${code}&flow=${flow}&x=`);
      expect(res.status).toBe(303);
      expect(res.location).toMatch(/\/me$/);
      expect(await me(browser)).toEqual({ user: { id: 'connect-utm@example.com' } });
    });
  });
});
