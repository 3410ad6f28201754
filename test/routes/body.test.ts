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
