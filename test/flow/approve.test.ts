// The phone's side of a handoff as a
// single-page app speaks it (JSON), the two-digit number exactly, and what the store keeps of
// a denial. What the phone and the laptop see: the status, the JSON body, the flow's status.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { MemoryFlowStore } from '../../src/index.js';
import { StoreSecrets } from '../../src/flow/seal.js';
import { clickLink, CLIENT, type Harness, lastLinkTo } from '../helpers/harness.js';
import { useSharedEmulator } from '../helpers/sharedEmulator.js';
import { subscribe, unsubscribe } from 'node:diagnostics_channel';

const pool = useSharedEmulator();

/** The strategy's own secrets (the harness's client secret): what the server seals a flow with. */
const secrets = new StoreSecrets(CLIENT.clientSecret);

/** A memory store that remembers the flow keys it was asked to create. */
class KeyedStore extends MemoryFlowStore {
  readonly flowKeys: string[] = [];
  override create(key: string, value: string, ttlMs: number) {
    if (key.startsWith('flow:')) this.flowKeys.push(key);
    return super.create(key, value, ttlMs);
  }
  /** The latest flow's record, opened as the server opens it. */
  async record(flowId: string): Promise<Record<string, unknown>> {
    return secrets.open(flowId, await this.get(this.flowKeys.at(-1)!)) as Record<string, unknown>;
  }
}

/** The flow id a link carries back. */
function flowOf(callback: string): string {
  return new URL(callback, 'http://x').searchParams.get('flow')!;
}

async function ask(email: string) {
  const store = new KeyedStore();
  const h: Harness = await pool.harness({ strategy: { store: store } });
  const laptop = h.browser();
  const sent = await laptop.post('/auth/magic-link').set('accept', 'application/json').send({ email });
  expect(sent.status).toBe(200);
  const callback = await clickLink(lastLinkTo(h.emulator, email));
  const phone = h.browser();
  const status = async () => (await laptop.get('/auth/status')).body.status as string;
  return { h, store, laptop, phone, callback, match: sent.body.match as string, status };
}

const awaiting = { approval: 'required', askedBy: expect.objectContaining({ at: expect.any(String) }), field: 'match' };

describe('the phone side in JSON', () => {
  it('GET asking for JSON: 200 and what to send, nothing spent', async () => {
    const { phone, callback, status } = await ask('json-get@example.com');
    const res = await phone.get(callback).set('accept', 'application/json');
    expect(res.status).toBe(200);
    expect(res.body).toEqual(awaiting);
    expect(await status()).toBe('pending');
  });

  it('no number: 202 and no error; not two digits: 202 with INVALID_NUMBER; the flow waits', async () => {
    const { phone, callback, status } = await ask('json-none@example.com');
    const none = await phone.post(callback).send({});
    expect(none.status).toBe(202);
    expect(none.body).toEqual(awaiting);
    const junk = await phone.post(callback).send({ match: 'ab' });
    expect(junk.status).toBe(202);
    expect(junk.body).toEqual({
      ...awaiting,
      error: {
        code: 'INVALID_NUMBER',
        field: 'match',
        message: 'Type the two-digit number shown on your computer, then press “Approve”.',
      },
    });
    expect(await status()).toBe('pending');
  });

  it.each([
    ['a character before it', (m: string) => `x${m}`],
    ['a character after it', (m: string) => `${m}x`],
    ['three digits', (m: string) => `${m}0`],
  ])('the number with %s is no answer (202): the flow waits, nothing denied', async (_what, alter) => {
    const { phone, callback, match, status } = await ask('json-anchors@example.com');
    const res = await phone.post(callback).send({ match: alter(match) });
    expect(res.status).toBe(202);
    expect(res.body.error.code).toBe('INVALID_NUMBER');
    expect(await status()).toBe('pending');
  });

  it('the number inside a list is no answer (202, no error): never read as the number', async () => {
    const { phone, callback, match, status } = await ask('json-list@example.com');
    const res = await phone.post(callback).send({ match: [match] });
    expect(res.status).toBe(202);
    expect(res.body).toEqual(awaiting);
    expect(await status()).toBe('pending');
  });

  it('the number as a JSON number approves', async () => {
    const { phone, callback, match, status } = await ask('json-number@example.com');
    const res = await phone.post(callback).send({ match: Number(match) });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ approval: 'approved', message: expect.stringContaining('signed in') });
    expect(await status()).toBe('approved');
  });

  it('JSON by Accept alone (a form body) or by Content-Type alone; a page otherwise', async () => {
    const { phone, callback } = await ask('json-either@example.com');
    const byAccept = await phone.post(callback).set('accept', 'application/json').type('form').send({});
    expect(byAccept.status).toBe(202);
    expect(byAccept.body).toEqual(awaiting);
    const byType = await phone.post(callback).set('accept', '*/*').send({});
    expect(byType.status).toBe(202);
    expect(byType.body).toEqual(awaiting);
    const page = await phone.post(callback).set('accept', '*/*').type('form').send({});
    expect(page.headers['content-type']).toMatch(/text\/html/);
  });
});

describe('refusals in JSON carry their code, and the store keeps why a flow was denied', () => {
  it('a wrong number: 403 WRONG_NUMBER, denied for good, kept as WRONG_NUMBER; a second try: FLOW_EXPIRED', async () => {
    const { phone, callback, match, status, store } = await ask('json-wrong@example.com');
    const wrong = String(((Number(match) - 10 + 1) % 90) + 10);
    const res = await phone.post(callback).send({ match: wrong });
    expect(res.status).toBe(403);
    // The message is the page's title and text, in a sentence or more.
    expect(res.body).toEqual({
      approval: 'wrongNumber',
      error: { code: 'WRONG_NUMBER', message: expect.stringMatching(/^\S[^.]*\. \S/) },
    });
    expect(await status()).toBe('denied');
    expect((await store.record(flowOf(callback))).deniedBecause).toBe('WRONG_NUMBER');
    const again = await phone.post(callback).send({ match });
    expect(again.body.error.code).toBe('FLOW_EXPIRED');
  });

  it("'This wasn't me': denied, kept as USER_DENIED", async () => {
    const { phone, callback, status, store } = await ask('json-deny@example.com');
    const res = await phone.post(callback).send({ decision: 'deny' });
    expect(res.body.approval).toBe('denied');
    expect(await status()).toBe('denied');
    expect((await store.record(flowOf(callback))).deniedBecause).toBe('USER_DENIED');
  });

  it('a code the service refuses: CODE_REJECTED, the flow waits', async () => {
    const { h, phone, callback, match, status } = await ask('json-rejected@example.com');
    h.emulator.fault({ path: '/auth/v1/verify/code', status: 400, body: { message: 'Invalid code' }, times: 1 });
    const res = await phone.post(callback).send({ match });
    expect(res.body).toEqual({ approval: 'rejected', error: { code: 'CODE_REJECTED', message: expect.any(String) } });
    expect(await status()).toBe('pending');
  });

  it('a flow whose send the service has not answered yet (no send ids): FLOW_EXPIRED, nothing verified', async () => {
    const { phone, callback, match, store, status } = await ask('json-unbound@example.com');
    const key = store.flowKeys.at(-1)!;
    // The server's own record before the service answered the send: sealed by the server.
    const { sendIds: _dropped, ...unbound } = await store.record(flowOf(callback));
    await store.take(key);
    await store.create(key, secrets.seal(flowOf(callback), unbound), 600_000);
    const res = await phone.post(callback).send({ match });
    expect(res.body).toEqual({ approval: 'gone', error: { code: 'FLOW_EXPIRED', message: expect.any(String) } });
    expect(await status()).toBe('pending');
  });
});

// What the phone's decision publishes
// on the diagnostics channels, and a decision that loses the race to another device. Isolated
// (vitest.config.ts): it counts every event of two process-wide channels.

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

async function askRaced(email: string) {
  const store = new RacedStore();
  const h = await pool.harness({ strategy: { store: store } });
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
    const { phone, callback, match, startedAt } = await askRaced('events-age@example.com');
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
    const { store, laptop, phone, callback, match } = await askRaced('events-race@example.com');
    store.race = true;
    const res = await phone.post(callback).send(kind === 'deny' ? { decision: 'deny' } : { match });
    expect(res.status).toBe(410);
    expect(res.body).toEqual({ approval: 'gone', error: { code: 'FLOW_EXPIRED', message: expect.any(String) } });
    expect(events).toEqual([]);
    expect((await laptop.get('/auth/status')).body.status).toBe('denied');
  });
});
