// Options are read from their own keys only: an entry another module put on Object.prototype
// (prototype pollution) must never turn a defence off. Each app here is built while the
// prototype is polluted, then driven over real HTTP after the pollution is gone.
import express from 'express';
import supertest from 'supertest';
import { afterEach, describe, expect, it } from 'vitest';
import { requireIdentity, requireLowRisk, SendLimiter } from '../../src/index.js';
import { clickLink, lastLinkTo, startHarness } from '../helpers/harness.js';
import type { Harness, HarnessOptions } from '../helpers/harness.js';

const json = { accept: 'application/json' };
const proto = Object.prototype as Record<string, unknown>;

/** Runs `build` while Object.prototype carries `entries`, and removes them whatever happens. */
async function polluted<T>(entries: Record<string, unknown>, build: () => Promise<T> | T): Promise<T> {
  for (const [key, value] of Object.entries(entries)) proto[key] = value;
  try {
    return await build();
  } finally {
    for (const key of Object.keys(entries)) delete proto[key];
  }
}

let open: Harness[] = [];
afterEach(async () => {
  await Promise.all(open.map((h) => h.close()));
  open = [];
});
async function harness(entries: Record<string, unknown>, options: HarnessOptions = {}): Promise<Harness> {
  const h = await polluted(entries, () => startHarness(options));
  open.push(h);
  return h;
}

describe('a polluted Object.prototype is no option', () => {
  it("crossDevice: 'accept' on the prototype leaves the handoff on (the send shows its number)", async () => {
    const h = await harness({ crossDevice: 'accept' });
    const sent = await h.browser().post('/auth/magic-link').set(json).send({ email: 'proto@pollution.example' });
    expect(sent.status).toBe(200);
    expect(sent.body.match).toMatch(/^\d{2}$/);
  });

  it('limits: false on the prototype leaves the send limits on', async () => {
    const h = await harness({ limits: false });
    const browser = h.browser();
    for (let i = 0; i < 5; i++) {
      expect((await browser.post('/auth/magic-link').set(json).send({ email: 'lim@pollution.example' })).status).toBe(
        200,
      );
    }
    const refused = await browser.post('/auth/magic-link').set(json).send({ email: 'lim@pollution.example' });
    expect(refused.status).toBe(429);
    expect(refused.body.error.code).toBe('RATE_LIMITED');
  });

  it('perIp: false on the prototype leaves a limits object its per-IP budget', async () => {
    const h = await harness({ perIp: false }, { strategy: { limits: { perDestination: false } }, send: {} });
    const browser = h.browser();
    for (let i = 0; i < 20; i++) {
      const res = await browser
        .post('/auth/magic-link')
        .set(json)
        .send({ email: `ip${i}@pollution.example` });
      expect(res.status).toBe(200);
    }
    const refused = await browser.post('/auth/magic-link').set(json).send({ email: 'ip20@pollution.example' });
    expect(refused.status).toBe(429);
    expect(refused.body.error.code).toBe('RATE_LIMITED');
    // A limiter built while polluted keeps both budgets too.
    const limiter = await polluted({ perIp: false, perDestination: false }, () => new SendLimiter());
    expect(limiter.perIp).toEqual({ limit: 20, windowSeconds: 900 });
    expect(limiter.perDestination).toEqual({ limit: 5, windowSeconds: 900 });
  });

  it('a render function on the prototype, there while pages are drawn, does not draw them', async () => {
    const h = await harness({}, { strategy: { pages: {}, confirm: true } });
    const browser = h.browser();
    const email = 'page@pollution.example';
    expect((await browser.post('/auth/magic-link').set(json).send({ email })).status).toBe(200);
    const callback = await clickLink(lastLinkTo(h.emulator, email));
    const res = await polluted({ render: () => '<p>planted</p>' }, () =>
      browser.get(callback).set('accept', 'text/html'),
    );
    expect(res.status).toBe(200);
    expect(res.text).not.toContain('planted');
    expect(res.text).toContain('<form');
  });

  it('loginUrl on the prototype, there while guards answer, does not redirect them', async () => {
    const app = express();
    app.get('/low', requireLowRisk(), (_req, res) => res.send('ok'));
    app.get('/id', requireIdentity('EMAIL'), (_req, res) => res.send('ok'));
    app.get('/low-opts', requireLowRisk({}), (_req, res) => res.send('ok'));
    app.use((err: { status?: number }, _req: express.Request, res: express.Response, _next: express.NextFunction) => {
      res.status(err.status ?? 500).end();
    });
    for (const path of ['/low', '/id', '/low-opts']) {
      const res = await polluted({ loginUrl: '/planted' }, () => supertest(app).get(path).set('accept', 'text/html'));
      expect(res.headers.location).toBeUndefined();
      expect(res.status).toBe(401);
    }
  });
});
