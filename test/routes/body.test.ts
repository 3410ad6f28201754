// A body of a media type nobody parses is the caller's 415, not a 500 setup error for anyone.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from '../helpers/harness.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());

describe('send() and media types', () => {
  it.each(['application/json-x', 'application/json-seq', 'text/plain', 'application/xml'])(
    'answers 415 UNSUPPORTED_MEDIA_TYPE to %s',
    async (type) => {
      const res = await h
        .browser()
        .post('/auth/magic-link')
        .set('accept', 'application/json')
        .set('content-type', type)
        .send('{"email":"a@example.com"}');
      expect(res.status).toBe(415);
      expect(res.body.error.code).toBe('UNSUPPORTED_MEDIA_TYPE');
    },
  );

  it('still parses JSON with a charset parameter', async () => {
    const res = await h
      .browser()
      .post('/auth/magic-link')
      .set('accept', 'application/json')
      .set('content-type', 'application/json; charset=utf-8')
      .send('{"email":"charset@example.com"}');
    expect(res.status).toBe(200);
  });
});

// The one path to MISSING_BODY_PARSER: send() reads a form or JSON body itself only on POST and
// PUT, so mounted for another method (app.use, app.all, app.patch) with no parser before it, a
// form or JSON body reaches it unread, and the app's setup is what is wrong.
describe('send() mounted for a method it does not read a body on', () => {
  let patched: Harness;
  beforeAll(async () => {
    patched = await startHarness({
      emulator: h.emulator,
      routes: (app) => app.patch('/auth/patch-send', (req, res, next) => patched.strategy.send()(req, res, next)),
    });
  });
  afterAll(() => patched.close());

  it('a PATCH with a JSON body and no parser: 500 MISSING_BODY_PARSER (OtplessSetupError), no send', async () => {
    const before = patched.emulator.outbox().length;
    const res = await patched
      .browser()
      .patch('/auth/patch-send')
      .set('accept', 'application/json')
      .set('content-type', 'application/json')
      .send('{"email":"patch@example.com"}');
    expect(res.status).toBe(500);
    expect(res.body.error.code).toBe('MISSING_BODY_PARSER');
    expect(patched.emulator.outbox()).toHaveLength(before);
  });

  it('the same PATCH as a form: MISSING_BODY_PARSER too; another media type stays the caller’s 415', async () => {
    const form = await patched
      .browser()
      .patch('/auth/patch-send')
      .set('accept', 'application/json')
      .type('form')
      .send('email=patch@example.com');
    expect(form.body.error.code).toBe('MISSING_BODY_PARSER');
    const text = await patched
      .browser()
      .patch('/auth/patch-send')
      .set('accept', 'application/json')
      .set('content-type', 'text/plain')
      .send('email=patch@example.com');
    expect(text.status).toBe(415);
  });
});
