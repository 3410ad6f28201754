/**
 * Malformed sends and callbacks against our own routes, through the real app: each one is a
 * 4xx with a message a person can act on, never a 500, and never a call to the service (the
 * emulator's servers count what reaches them). A missing body parser or session is the app's
 * setup error, 500 by design: tested on its own below.
 */
import express from 'express';
import supertest from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator, type Emulator } from '../../src/emulator/index.js';
import { CLIENT, startHarness, type Harness } from '../helpers/harness.js';
import { ServiceCallCounter } from './support/service.js';
import { SuiteWatch } from './support/watch.js';

const watch = new SuiteWatch().install();
watch.sensitive(CLIENT.clientSecret);

let emulator: Emulator;
let h: Harness;
let counter: ServiceCallCounter;

/** Logs every error the app sees, the way an app's error handler usually does. */
function routes(app: express.Express): void {
  // How an app shows a callback refusal: Passport's custom callback, with the failure's message.
  app.all('/auth/callback-json', express.urlencoded({ extended: false }), express.json(), (req, res, next) => {
    h.passport.authenticate(
      h.strategy.name,
      (err: unknown, user: unknown, info: { code?: string; message?: string } | undefined, status?: number) => {
        if (err) return next(err);
        if (!user) return res.status(status ?? 401).json({ error: info ?? {} });
        res.json({ ok: true });
      },
    )(req, res, next);
  });
  // The same send route with no body parser in front of it: a setup mistake.
  app.post('/no-parser/magic-link', (req, res, next) => h.strategy.send()(req as never, res, next));
  app.use((err: unknown, _req: express.Request, _res: express.Response, next: express.NextFunction) => {
    console.error('[app] request failed:', err);
    next(err);
  });
}

beforeAll(async () => {
  emulator = await startEmulator({ clients: [CLIENT], quiet: false });
  h = await startHarness({ emulator, routes });
  counter = new ServiceCallCounter(emulator);
});
afterAll(async () => {
  counter.close();
  await h.close();
  await emulator.close();
  watch.uninstall();
});

type Send = (agent: supertest.Agent) => supertest.Test;

interface BadRequest<R> {
  name: string;
  request: R;
  status: number;
}
/** Rows as objects, so each test is named "<what> -> <status>". */
function cases<R>(rows: Array<[string, R, number]>): BadRequest<R>[] {
  return rows.map(([name, request, status]) => ({ name, request, status }));
}

const json =
  (body: unknown): Send =>
  (a) =>
    a
      .post('/auth/magic-link')
      .set('accept', 'application/json')
      .send(body as object);
const form =
  (raw: string): Send =>
  (a) =>
    a.post('/auth/magic-link').set('accept', 'application/json').type('form').send(raw);
const raw =
  (contentType: string, body: string | Buffer, extra: Record<string, string> = {}): Send =>
  (a) =>
    a.post('/auth/magic-link').set('accept', 'application/json').set('content-type', contentType).set(extra).send(body);

const big = 'a'.repeat(10_000);

/** [name, request, expected status or range]: sends that must never reach the service. */
const BAD_SENDS = cases<Send>([
  ['an empty JSON object', json({}), 400],
  ['email as a number', json({ email: 42 }), 400],
  ['email as an array', json({ email: ['a@example.com', 'b@example.com'] }), 400],
  ['email as an object (operator injection)', json({ email: { $gt: '' } }), 400],
  ['email as a boolean', json({ email: true }), 400],
  ['email null and no mobile', json({ email: null }), 400],
  ['email of 10,000 characters', json({ email: `${big}@example.com` }), 400],
  ['email of 300 characters', json({ email: `${'a'.repeat(290)}@example.com` }), 400],
  ['email without a dotted domain', json({ email: 'ada@localhost' }), 400],
  ['email with a homoglyph @ (U+FF20)', json({ email: 'ada\uff20example.com' }), 400],
  ['email with a NUL', json({ email: 'ada\u0000@example.com' }), 400],
  ['email with CRLF header injection', json({ email: 'ada@example.com\r\nBcc: eve@example.com' }), 400],
  ['email of spaces only', json({ email: '   ' }), 400],
  ['duplicated email in a form (email=a&email=b)', form('email=a%40example.com&email=b%40example.com'), 400],
  ['a nested form key (email[x]=...)', form('email%5Bx%5D=a%40example.com'), 400],
  ['mobile as a number', json({ mobile: 919876543210 }), 400],
  ['mobile with letters', json({ mobile: 'call-me-maybe' }), 400],
  ['mobile too short', json({ mobile: '+1 23' }), 400],
  ['mobile of 20 digits', json({ mobile: '12345678901234567890' }), 400],
  [
    'mobile in full-width digits',
    json({ mobile: '\uff19\uff11\uff19\uff18\uff17\uff16\uff15\uff14\uff13\uff12\uff11\uff10' }),
    400,
  ],
  ['mobile with a zero-width space', json({ mobile: '91987\u200b6543210' }), 400],
  ['mobile with an RTL override', json({ mobile: '\u202e919876543210' }), 400],
  ['mobile as an array', json({ mobile: ['919876543210'] }), 400],
  ['a valid email with an invalid mobile', json({ email: 'ok@example.com', mobile: 'nope' }), 400],
  ['a JSON array body', json([{ email: 'a@example.com' }]), 400],
  ['a JSON string body', raw('application/json', '"a@example.com"'), 400],
  ['invalid JSON', raw('application/json', '{"email":'), 400],
  ['a __proto__ key', raw('application/json', '{"__proto__":{"email":"a@example.com"}}'), 400],
  // A body of a media type nobody parses: the caller's 415.
  ['text/plain content type', raw('text/plain', 'email=a@example.com'), 415],
  [
    'multipart content type',
    raw(
      'multipart/form-data; boundary=x',
      '--x\r\nContent-Disposition: form-data; name="email"\r\n\r\na@example.com\r\n--x--',
    ),
    415,
  ],
  ['application/xml content type', raw('application/xml', '<email>a@example.com</email>'), 415],
  ['an unsupported charset', raw('application/json; charset=koi8-r', '{"email":"a@example.com"}'), 415],
  [
    'an unsupported content encoding',
    raw('application/json', '{"email":"a@example.com"}', { 'content-encoding': 'compress' }),
    415,
  ],
  ['a JSON body over the parser limit', json({ email: 'a@example.com', pad: 'x'.repeat(200_000) }), 413],
  ['a form body over the parser limit', form(`email=a%40example.com&pad=${'x'.repeat(200_000)}`), 413],
  ['a form with too many parameters', form(Array.from({ length: 1_500 }, (_, i) => `p${i}=1`).join('&')), 413],
]);

// Addresses that display as other ones: invisible and control characters are refused locally.
const INVISIBLE_SENDS = cases<Send>([
  ['email with an RTL override (U+202E)', json({ email: 'ada\u202e@example.com' }), 400],
  ['email with a zero-width space (U+200B)', json({ email: 'ada\u200b@example.com' }), 400],
  ['email with a zero-width joiner in the domain (U+200D)', json({ email: 'ada@exam\u200dple.com' }), 400],
]);

type Callback = (agent: supertest.Agent) => supertest.Test;
const get =
  (query: string): Callback =>
  (a) =>
    a.get(`/auth/callback-json${query}`).set('accept', 'application/json');
const post =
  (body: unknown, contentType = 'application/json', headers: Record<string, string> = {}): Callback =>
  (a) =>
    a
      .post('/auth/callback-json')
      .set('accept', 'application/json')
      .set('content-type', contentType)
      .set(headers)
      .send(typeof body === 'string' ? body : JSON.stringify(body));

const BAD_CALLBACKS = cases<Callback>([
  ['no code', get(''), 400],
  ['an empty code', get('?code='), 400],
  ['a duplicated code (?code=a&code=b)', get('?code=a&code=b'), 400],
  ['code[] (array syntax)', get('?code[]=abc'), 400],
  ['code[x] (object syntax)', get('?code[x]=abc'), 400],
  ['a code with a space', get('?code=ab%20cd'), 400],
  ['a code with a NUL', get('?code=ab%00cd'), 400],
  ['a code with an RTL override', get('?code=ab%E2%80%AEcd'), 400],
  ['a code with a zero-width space', get('?code=ab%E2%80%8Bcd'), 400],
  ['a code in full-width letters', get('?code=%EF%BD%81%EF%BD%82%EF%BD%83'), 400],
  ['a code with invalid percent-encoding', get('?code=%E0%A4%A'), 400],
  ['a code of 600 characters', get(`?code=${'x'.repeat(600)}`), 400],
  ['a code of 100,000 characters (over the header limit)', get(`?code=${'x'.repeat(100_000)}`), 431],
  ['POST: code as a number', post({ code: 123456 }), 400],
  ['POST: code as an array', post({ code: ['a', 'b'] }), 400],
  ['POST: code as an object', post({ code: { $ne: null } }), 400],
  ['POST: both token and code', post({ token: 'tok', code: 'abc' }), 400],
  ['POST: token as a number', post({ token: 42 }), 400],
  ['POST: token of 5,000 characters', post({ token: 't'.repeat(5_000) }), 400],
  ['POST: token with a space', post({ token: 'to ken' }), 400],
  ['POST: invalid JSON', post('{"code":', 'application/json'), 400],
  ['POST: text/plain body (no parser matches)', post('code=abc', 'text/plain'), 400],
  ['POST: a body over the parser limit', post({ code: 'abc', pad: 'x'.repeat(200_000) }), 413],
  [
    'POST: a token from another site (Origin)',
    post({ token: 'tok_valid_looking_123' }, 'application/json', { origin: 'https://evil.example' }),
    403,
  ],
  [
    'POST: a token without Origin or Sec-Fetch-Site',
    (a) => post({ token: 'tok_valid_looking_123' })(a).unset('origin'),
    403,
  ],
  ['a well-formed code in a browser that asked for no link', get('?code=WellFormedCode123'), 403],
]);

/** The message a person sees, wherever the route puts it. */
function messageOf(res: supertest.Response): string {
  const body = res.body as { error?: { message?: unknown } } | undefined;
  const message = body?.error?.message;
  if (typeof message === 'string') return message;
  return res.text || (res as unknown as { res?: { statusMessage?: string } }).res?.statusMessage || '';
}

async function expectRefusedLocally(
  request: (a: supertest.Agent) => supertest.Test,
  status: number,
): Promise<supertest.Response> {
  const before = counter.total;
  const outboxBefore = emulator.outbox().length;
  const res = await request(h.browser());
  watch.error(res.text);
  expect(res.status, res.text.slice(0, 300)).toBe(status);
  expect(res.status).toBeGreaterThanOrEqual(400);
  expect(res.status).toBeLessThan(500);
  expect(messageOf(res).length, 'a clear message').toBeGreaterThan(10);
  expect(counter.total - before, 'calls that reached the service').toBe(0);
  expect(emulator.outbox().length).toBe(outboxBefore);
  return res;
}

describe(`${BAD_SENDS.length} malformed sends: 4xx, a clear message, no call to the service`, () => {
  it.each(BAD_SENDS)('$name -> $status', async ({ request, status }) => {
    const res = await expectRefusedLocally(request, status);
    if (status === 400 && res.body?.error) expect(res.body.error.code).toMatch(/^(INVALID_INPUT|INTERNAL)$/);
  });

  it.each(INVISIBLE_SENDS)('$name -> $status', async ({ request, status }) => {
    await expectRefusedLocally(request, status);
  });
});

describe(`${BAD_CALLBACKS.length} malformed callbacks: 4xx, a clear message, no call to the service`, () => {
  it.each(BAD_CALLBACKS)('$name -> $status', async ({ request, status }) => {
    await expectRefusedLocally(request, status);
  });

  it('the plain callback route (Passport default) answers the same statuses', async () => {
    for (const [query, status] of [
      ['', 400],
      ['?code=a&code=b', 400],
      ['?code=ab%00cd', 400],
      ['?code=WellFormedCode123', 403],
    ] as const) {
      const before = counter.total;
      expect((await h.browser().get(`/auth/callback${query}`)).status).toBe(status);
      expect(counter.total).toBe(before);
    }
  });
});

describe('setup errors: 500 by design, with a message naming the fix, and no call to the service', () => {
  it('a send route without a body parser reads the body itself: no setup error', async () => {
    const res = await h
      .browser()
      .post('/no-parser/magic-link')
      .set('accept', 'application/json')
      .send({ email: 'a@example.com' });
    expect(res.status).toBe(200);
    expect(res.body.sent).toEqual([{ type: 'EMAIL', channel: 'EMAIL' }]);
  });

  it('a send route without a session is the setup error MISSING_SESSION', async () => {
    // The same strategy, mounted on an app with no session middleware at all.
    const app = express();
    app.post('/m', express.json(), h.strategy.send());
    app.use(
      (
        err: { status?: number; code?: string; message: string },
        _req: express.Request,
        res: express.Response,
        _next: express.NextFunction,
      ) => {
        res.status(err.status ?? 500).json({ error: { code: err.code, message: err.message } });
      },
    );
    const before = counter.total;
    const res = await supertest(app).post('/m').send({ email: 'a@example.com' });
    expect(res.status).toBe(500);
    expect(res.body.error.code).toBe('MISSING_SESSION');
    expect(res.body.error.message).toMatch(/needs a session/);
    expect(counter.total).toBe(before);
  });
});

describe('the counter itself', () => {
  it('sees a valid send reach the service (so the zeros above mean something)', async () => {
    const before = counter.total;
    const res = await h
      .browser()
      .post('/auth/magic-link')
      .set('accept', 'application/json')
      .send({ email: 'counted@example.com' });
    expect(res.status).toBe(200);
    expect(counter.total - before).toBe(1);
  });
});

describe('secrets and rejections', () => {
  it('no log line or error of this file contains the secret, a code or a token; no unhandled rejection', () => {
    expect(watch.leaks()).toEqual([]);
    expect(watch.rejections).toEqual([]);
  });
});
