// Mutation survivors 4, 5 and 8 and the origin checks' edges (docs/testing.md): what a browser,
// an attacker's page or an API client sees when it POSTs with odd Origin, Sec-Fetch-Site and
// Content-Type headers, and what a visitor sees when an async guard handler fails.
import type express from 'express';
import supertest from 'supertest';
import { beforeAll, describe, expect, it } from 'vitest';
import { requireLowRisk } from '../../src/index.js';
import type { Emulator } from '../../src/emulator/index.js';
import { loginVia, type Harness } from '../helpers/harness.js';
import { harnessPool } from '../helpers/pool.js';

const pool = harnessPool();
let emulator: Emulator;
beforeAll(async () => {
  emulator = await pool.emulator();
});

type Headers = Record<string, string>;

/** POST /auth/magic-link with exactly these headers (no browser adds its own Origin). */
function send(h: Harness, headers: Headers, email: string) {
  const req = supertest(h.server).post('/auth/magic-link').set('accept', 'application/json');
  for (const [name, value] of Object.entries(headers)) req.set(name, value);
  if (!headers['content-type']) req.type('form');
  const json = /^application\/json/i.test(headers['content-type'] ?? '');
  return req.send(json ? JSON.stringify({ email }) : `email=${email}`);
}

/** A frontend token POSTed to the callback with exactly these headers. */
function postToken(h: Harness, headers: Headers, token: string) {
  const req = supertest(h.server).post('/auth/callback').type('form');
  for (const [name, value] of Object.entries(headers)) req.set(name, value);
  return req.send({ token });
}

describe('a malformed Origin is another site, never this one', () => {
  it.each(['http://[', 'http://', '://x', 'not a url at all'])(
    'send(): Origin %s is 403 CROSS_SITE',
    async (origin) => {
      const h = await pool.app();
      const res = await send(h, { origin }, 'malformed@example.com');
      expect(res.status).toBe(403);
      expect(res.body.error.code).toBe('CROSS_SITE');
      expect(emulator.outbox().filter((e) => e.to === 'malformed@example.com')).toEqual([]);
    },
  );

  it('a frontend token with Origin http://[ logs nobody in (403)', async () => {
    const h = await pool.app();
    const token = emulator.issueToken({ email: 'malformed-token@example.com' });
    const res = await postToken(h, { origin: 'http://[' }, token);
    expect(res.status).toBe(403);
    // The same token from this site still works: it was refused for its origin, not spent.
    expect((await postToken(h, { origin: h.baseUrl }, token)).status).toBe(302);
  });
});

describe('Origin: null, as browsers send it from no-referrer pages', () => {
  it('with Sec-Fetch-Site: same-origin, a form of this site: the link is sent', async () => {
    const h = await pool.app();
    const res = await send(h, { origin: 'null', 'sec-fetch-site': 'same-origin' }, 'null-same@example.com');
    expect(res.status).toBe(200);
    expect(emulator.outbox().some((e) => e.to === 'null-same@example.com')).toBe(true);
  });

  it.each([
    ['alone', { origin: 'null' }],
    ['with Sec-Fetch-Site: cross-site', { origin: 'null', 'sec-fetch-site': 'cross-site' }],
    ['with Sec-Fetch-Site: same-site', { origin: 'null', 'sec-fetch-site': 'same-site' }],
  ])('%s: 403 CROSS_SITE', async (_name, headers: Headers) => {
    const h = await pool.app();
    const res = await send(h, headers, 'null-other@example.com');
    expect(res.status).toBe(403);
    expect(res.body.error.code).toBe('CROSS_SITE');
  });

  it('a frontend token with Origin: null and Sec-Fetch-Site: same-origin logs in; without it, not', async () => {
    const h = await pool.app();
    const refused = await postToken(h, { origin: 'null' }, emulator.issueToken({ email: 'null-a@example.com' }));
    expect(refused.status).toBe(403);
    const token = emulator.issueToken({ email: 'null-b@example.com' });
    const res = await postToken(h, { origin: 'null', 'sec-fetch-site': 'same-origin' }, token);
    expect(res.status).toBe(302);
  });
});

describe('Sec-Fetch-Site without Origin', () => {
  it('same-origin: the link is sent', async () => {
    const h = await pool.app();
    expect((await send(h, { 'sec-fetch-site': 'same-origin' }, 'sfs-same@example.com')).status).toBe(200);
  });

  it.each(['same-site', 'cross-site', 'none'])('%s: 403 CROSS_SITE', async (site) => {
    const h = await pool.app();
    const res = await send(h, { 'sec-fetch-site': site }, 'sfs-other@example.com');
    expect(res.status).toBe(403);
    expect(res.body.error.code).toBe('CROSS_SITE');
  });
});

describe('neither header: only a JSON body (which no other site can send without CORS) is let through', () => {
  it.each(['application/json', 'application/json; charset=utf-8', 'Application/JSON'])(
    'Content-Type %s: the link is sent',
    async (type) => {
      const h = await pool.app();
      expect((await send(h, { 'content-type': type }, 'api@example.com')).status).toBe(200);
    },
  );

  it.each([
    // A form can send text/plain with any parameters: "application/json" later in the value is
    // not a JSON body.
    'text/plain; note=application/json',
    'text/plain',
    'application/x-www-form-urlencoded',
    'application/jsonp',
  ])('Content-Type %s: 403 CROSS_SITE, nothing sent', async (type) => {
    const h = await pool.app();
    const res = await send(h, { 'content-type': type }, 'csrf-type@example.com');
    expect(res.status).toBe(403);
    expect(res.body.error.code).toBe('CROSS_SITE');
    expect(emulator.outbox().filter((e) => e.to === 'csrf-type@example.com')).toEqual([]);
  });
});

describe('redirect targets are paths of this site, up to 2,048 characters', () => {
  it('send({ successRedirect }) takes a 2,048-character path and refuses a 2,049-character one', async () => {
    const h = await pool.app();
    expect(() => h.strategy.send({ successRedirect: `/${'a'.repeat(2047)}` })).not.toThrow();
    expect(() => h.strategy.send({ successRedirect: `/${'a'.repeat(2048)}` })).toThrow(TypeError);
  });
});

describe('an async guard handler that fails', () => {
  it("reaches the app's error handler: the visitor gets its 500, the request never hangs", async () => {
    const errors: unknown[] = [];
    const h = await pool.app({
      strategy: { enrich: ['secureInfo'] },
      routes: (app: express.Express) => {
        const failing = async () => {
          throw new Error('the challenge page is down');
        };
        app.get('/pay', requireLowRisk({ onChallenge: failing as never }), (_req, res) => res.send('paid'));
        app.use((err: unknown, _req: express.Request, _res: express.Response, next: express.NextFunction) => {
          errors.push(err);
          next(err);
        });
      },
    });
    const browser = h.browser();
    expect((await loginVia(h, browser, { email: 'async-guard@example.com' }, 'vpn')).status).toBe(302);
    const res = await browser.get('/pay').set('accept', 'application/json');
    expect(res.status).toBe(500);
    expect(res.body.error.message).toBe('the challenge page is down');
    expect(errors).toHaveLength(1);
  });
});
