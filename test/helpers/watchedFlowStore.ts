// A real flow store the handoff tests can watch and break, and the two steps they share: a
// laptop asking for a link, and what that laptop must see once its flow is gone.
import { expect } from 'vitest';
import { MemoryFlowStore, type FlowStore } from '../../src/index.js';
import { StoreSecrets } from '../../src/flow/seal.js';
import { CLIENT, clickLink, lastLinkTo, type Harness } from './harness.js';

/** The secrets the harness's strategy seals its flows with (from its client secret). */
const SECRETS = new StoreSecrets(CLIENT.clientSecret);

/**
 * A real `MemoryFlowStore` on its own clock (`now`), with the keys it was asked to create.
 * `refuseFlows` makes it keep no new flow; `loseNextTake` makes the next `take` find nothing
 * (as when another tab or instance took the flow first).
 */
export class WatchedFlowStore implements FlowStore {
  now = Date.now();
  readonly inner = new MemoryFlowStore({}, () => this.now);
  readonly keys: string[] = [];
  refuseFlows = false;
  loseNextTake = false;
  create(key: string, value: string, ttlMs: number) {
    this.keys.push(key);
    if (this.refuseFlows && key.startsWith('flow:')) return Promise.resolve(false);
    return this.inner.create(key, value, ttlMs);
  }
  get(key: string) {
    return this.inner.get(key);
  }
  swap(key: string, expected: string, next: string) {
    return this.inner.swap(key, expected, next);
  }
  async take(key: string) {
    const value = await this.inner.take(key);
    if (!this.loseNextTake) return value;
    this.loseNextTake = false;
    return undefined;
  }
  /** The stored record of this flow, opened as the server opens it. */
  async record(key: string, flowId: string): Promise<Record<string, unknown>> {
    return SECRETS.open(flowId, await this.inner.get(key)) as Record<string, unknown>;
  }
  /** Replaces a flow's record with one the server sealed (a broken or older release's, say). */
  async overwriteRecord(key: string, flowId: string, record: unknown, ttlMs: number) {
    await this.overwrite(key, SECRETS.seal(flowId, record), ttlMs);
  }
  /** Replaces a stored value as a broken or foreign writer would. */
  async overwrite(key: string, value: string, ttlMs: number) {
    await this.inner.take(key);
    await this.inner.create(key, value, ttlMs);
  }
}

/** The laptop asks for a link (cross-device handoff, the default) and the link is clicked. */
export async function askForLink(h: Harness, store: WatchedFlowStore, email: string) {
  const laptop = h.browser();
  const sent = await laptop.post('/auth/magic-link').set('accept', 'application/json').send({ email });
  expect(sent.status).toBe(200);
  const flowKey = store.keys.filter((k) => k.startsWith('flow:')).at(-1)!;
  const callback = await clickLink(lastLinkTo(h.emulator, email));
  expect((await laptop.get('/auth/status')).body.status).toBe('pending');
  const flowId = new URL(callback, 'http://x').searchParams.get('flow')!;
  return { laptop, flowKey, flowId, callback, match: sent.body.match as string };
}

/** The flow is over for this laptop: its status says "expired", its callback is 401, nobody is signed in. */
export async function expectExpired(laptop: ReturnType<Harness['browser']>) {
  const status = await laptop.get('/auth/status');
  expect(status.status).toBe(200);
  expect(status.body.status).toBe('expired');
  const finished = await laptop.get('/auth/callback').set('accept', 'application/json');
  expect(finished.status).toBe(401);
  expect((await laptop.get('/me')).status).toBe(401);
}
