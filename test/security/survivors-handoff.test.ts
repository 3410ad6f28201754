// Mutation survivors 11 to 14 (docs/testing.md): a cross-device flow whose stored record is gone,
// unreadable, taken by another tab, or past its link's expiry on the store's clock. What the
// asking browser sees: its status says "expired" and its callback refuses (401), never a 500,
// never "pending", never a login.
import { describe, expect, it } from 'vitest';
import { harnessPool } from '../helpers/pool.js';
import { askForLink, expectExpired, WatchedFlowStore } from '../helpers/watchedFlowStore.js';

const pool = harnessPool();

describe('a flow the store no longer holds as written', () => {
  it('evicted by the store: expired', async () => {
    const store = new WatchedFlowStore();
    const h = await pool.app({ strategy: { flowStore: store } });
    const { laptop, flowKey } = await askForLink(h, store, 'evicted@example.com');
    await store.inner.take(flowKey);
    await expectExpired(laptop);
  });

  it.each([
    ['not JSON', 'garbage{'],
    ['JSON null', 'null'],
    ['without exp', JSON.stringify({ v: 1, s: 'pending', m: '42', a: {} })],
    ['of another version', JSON.stringify({ v: 2, s: 'approved', m: '42', exp: Date.now() + 60_000, a: {} })],
    ['with an unknown state', JSON.stringify({ v: 1, s: 'taken', m: '42', exp: Date.now() + 60_000, a: {} })],
  ])('overwritten with a record %s: expired', async (_what, value) => {
    const store = new WatchedFlowStore();
    const h = await pool.app({ strategy: { flowStore: store } });
    const { laptop, flowKey } = await askForLink(h, store, 'garbage@example.com');
    await store.overwrite(flowKey, value, 60_000);
    await expectExpired(laptop);
  });

  it('approved on the phone, but another tab took it first: this one is not signed in', async () => {
    const store = new WatchedFlowStore();
    const h = await pool.app({ strategy: { flowStore: store } });
    const { laptop, callback, match } = await askForLink(h, store, 'other-tab@example.com');
    const phone = h.browser();
    expect((await phone.post(callback).type('form').send({ match })).status).toBe(200);
    expect((await laptop.get('/auth/status')).body.status).toBe('approved');
    store.loseNextTake = true;
    const finished = await laptop.get('/auth/callback').set('accept', 'application/json');
    expect(finished.status).toBe(401);
    expect((await laptop.get('/me')).status).toBe(401);
  });
});

describe('the stored flow lives as long as its link, not longer', () => {
  it('once the link has expired on the store clock, the flow is gone: expired', async () => {
    const store = new WatchedFlowStore();
    // expiry: 600 s (the strategy's clock does not move, so only the store can drop the flow).
    const h = await pool.app({ strategy: { flowStore: store, expiry: 600 } });
    const { laptop } = await askForLink(h, store, 'ttl@example.com');
    store.now += 600_000 + 1_000;
    expect((await laptop.get('/auth/status')).body.status).not.toBe('pending');
    const finished = await laptop.get('/auth/callback').set('accept', 'application/json');
    expect(finished.status).toBe(401);
  });

  it('before that, it is still there: pending', async () => {
    const store = new WatchedFlowStore();
    const h = await pool.app({ strategy: { flowStore: store, expiry: 600 } });
    const { laptop } = await askForLink(h, store, 'ttl-live@example.com');
    store.now += 590_000;
    expect((await laptop.get('/auth/status')).body.status).toBe('pending');
  });
});

describe('the number typed on the phone (survivors 9 and 10)', () => {
  it('typed with spaces around it: approved, and the laptop signs in', async () => {
    const store = new WatchedFlowStore();
    const h = await pool.app({ strategy: { flowStore: store } });
    const { laptop, callback, match } = await askForLink(h, store, 'spaces@example.com');
    const approved = await h.browser().post(callback).type('form').send(`match=%20${match}%20`);
    expect(approved.status).toBe(200);
    expect(approved.text).toContain('You are signed in on your computer');
    expect((await laptop.get('/auth/callback')).status).toBe(302);
    expect((await laptop.get('/me')).status).toBe(200);
  });

  it('sent twice in one form (not one string): no answer (the page asks again, 400), never a 500, and the flow waits', async () => {
    const store = new WatchedFlowStore();
    const h = await pool.app({ strategy: { flowStore: store } });
    const { laptop, callback, match } = await askForLink(h, store, 'twice@example.com');
    const res = await h.browser().post(callback).type('form').send(`match=${match}&match=${match}`);
    expect(res.status).toBe(400);
    expect(res.text).not.toContain('You are signed in on your computer');
    expect((await laptop.get('/auth/status')).body.status).toBe('pending');
    expect((await laptop.get('/me')).status).toBe(401);
  });

  it('the right number, but the service refuses the code at approval: nothing proven, the flow waits, nobody signed in', async () => {
    const store = new WatchedFlowStore();
    const h = await pool.app({ strategy: { flowStore: store } });
    const { laptop, callback, match } = await askForLink(h, store, 'refused-code@example.com');
    h.emulator.fault({
      path: '/auth/v1/verify/code',
      status: 400,
      body: { message: 'Request error: Invalid code', errorCode: '7118' },
      times: 1,
    });
    const phone = h.browser();
    const res = await phone.post(callback).type('form').send({ match });
    expect(res.status).toBeLessThan(500);
    expect(res.text).not.toContain('You are signed in on your computer');
    // A code the service refuses proves nothing: it neither approves nor denies (issue 19).
    expect((await laptop.get('/auth/status')).body.status).toBe('pending');
    expect((await laptop.get('/me')).status).toBe(401);
    expect((await phone.get('/me')).status).toBe(401);
  });
});
