// Mutation survivors of flow/approve.ts (docs/testing.md): what the phone's decision publishes
// on the diagnostics channels, and a decision that loses the race to another device. Isolated
// (vitest.config.ts): it counts every event of two process-wide channels.
import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { MemoryFlowStore } from '../../src/index.js';
import { StoreSecrets } from '../../src/flow/seal.js';
import { CLIENT, clickLink, lastLinkTo } from '../helpers/harness.js';
import { harnessPool } from '../helpers/pool.js';

const pool = harnessPool();
/** The strategy's secrets (from the harness's client secret), with which its flows are sealed. */
const SECRETS = new StoreSecrets(CLIENT.clientSecret);

const CHANNELS = ['passport-otpless:handoff:approved', 'passport-otpless:handoff:denied'];
const events: Array<{ name: string; ageMs?: unknown }> = [];
const listeners = CHANNELS.map((name) => [name, (m: unknown) => events.push({ name, ...(m as object) })] as const);
beforeAll(() => listeners.forEach(([name, listener]) => subscribe(name, listener)));
afterAll(() => listeners.forEach(([name, listener]) => unsubscribe(name, listener)));
beforeEach(() => {
  events.length = 0;
});

/**
 * A memory store where another device decides the flow between this phone's read and its
 * swap, when `race` is set: the phone's compare-and-set then finds another text.
 */
class RacedStore extends MemoryFlowStore {
  race = false;
  /** The flow the other device decides: its record is sealed for it, by the server's secret. */
  flowId = '';
  override async swap(key: string, expected: string, next: string) {
    if (this.race && key.startsWith('flow:')) {
      this.race = false;
      const other = {
        ...(SECRETS.open(this.flowId, expected) as object),
        state: 'denied',
        deniedBecause: 'USER_DENIED',
      };
      expect(await super.swap(key, expected, SECRETS.seal(this.flowId, other))).toBe(true);
    }
    return super.swap(key, expected, next);
  }
}

async function ask(email: string) {
  const store = new RacedStore();
  const h = await pool.app({ strategy: { flowStore: store } });
  const laptop = h.browser();
  const startedAt = Date.now();
  const sent = await laptop.post('/auth/magic-link').set('accept', 'application/json').send({ email });
  expect(sent.status).toBe(200);
  const callback = await clickLink(lastLinkTo(h.emulator, email));
  store.flowId = new URL(callback, 'http://x').searchParams.get('flow')!;
  return { store, laptop, phone: h.browser(), callback, match: sent.body.match as string, startedAt };
}

describe('a decision, as the diagnostics channels tell it', () => {
  it.each([
    ['an approval', 'approve', 'passport-otpless:handoff:approved', {}],
    ["'This wasn't me'", 'deny', 'passport-otpless:handoff:denied', { code: 'USER_DENIED' }],
  ])('%s: one event, aged from the send to the decision', async (_what, kind, name, extra) => {
    const { phone, callback, match, startedAt } = await ask('events-age@example.com');
    expect((await phone.post(callback).send(kind === 'deny' ? { decision: 'deny' } : { match })).status).toBe(200);
    const since = Date.now() - startedAt;
    expect(events).toEqual([{ name, ageMs: expect.any(Number), ...extra }]);
    // The age counts from the laptop's request: never negative, never more than this test took.
    expect(events[0]!.ageMs).toBeGreaterThanOrEqual(0);
    expect(events[0]!.ageMs).toBeLessThanOrEqual(since);
  });
});

describe('a decision that another device made first', () => {
  it.each([
    ['an approval', 'approve'],
    ["'This wasn't me'", 'deny'],
  ])('%s: 410 FLOW_EXPIRED for this phone, no event; the laptop reads the other decision', async (_what, kind) => {
    const { store, laptop, phone, callback, match } = await ask('events-race@example.com');
    store.race = true;
    const res = await phone.post(callback).send(kind === 'deny' ? { decision: 'deny' } : { match });
    expect(res.status).toBe(410);
    expect(res.body).toEqual({ approval: 'gone', error: { code: 'FLOW_EXPIRED', message: expect.any(String) } });
    expect(events).toEqual([]);
    expect((await laptop.get('/auth/status')).body.status).toBe('denied');
  });
});
