import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { MemoryFlowStore } from '../../src/index.js';
import type { FlowStore } from '../../src/index.js';
import { startEmulator } from '../../src/emulator/index.js';
import type { Emulator } from '../../src/emulator/index.js';
import { Browser } from '../examples/helpers/browser.js';
import { linkTo, openLink } from '../examples/helpers/inbox.js';
import { CLIENT, HOSTS, signedIn } from './hosts.js';
import type { RunningHost } from './hosts.js';

// The status race: the waiting tab polls while the same browser opens the link in another tab.
// The poll read its session before the login and the flow after the callback finished it: it
// answered `expired`, and the waiting tab said "Nobody was signed in" beside the signed-in tab.
// And a poll answered after the login's answer must not put the old session's cookie back (as
// @fastify/session's default `rolling` did). Each step waits for an event of the flow store,
// never for a time.

const JSON_ACCEPT = { accept: 'application/json' };

/** A memory flow store whose next flow read waits until the flow was finished and the poll may go on. */
class RacingStore implements FlowStore {
  readonly inner = new MemoryFlowStore();
  /** The flows created, by key. */
  readonly flowKeys: string[] = [];
  /** Set while the poll's read of the flow is held. */
  private pollHeld: (() => void) | undefined;
  /** Resolves once a poll's read of the flow is held. */
  pollReached!: Promise<void>;
  private reached: (() => void) | undefined;
  /** The callback has taken the flow: its next mark waits for `pollAnswered`. */
  private taken = false;
  /** Resolves once the callback finished the flow (took it and wrote what it writes then). */
  flowFinished!: Promise<void>;
  private finished: (() => void) | undefined;
  private pollAnswered: Promise<void> | undefined;

  /** Holds the next read of a flow until `flowFinished`, and the callback after it until `answered`. */
  arm(answered: Promise<void>): void {
    this.pollReached = new Promise((resolve) => (this.reached = resolve));
    this.flowFinished = new Promise((resolve) => (this.finished = resolve));
    this.pollAnswered = answered;
    this.pollHeld = () => undefined;
  }

  create(key: string, value: string, ttlMs: number): Promise<boolean> {
    if (key.startsWith('flow:')) this.flowKeys.push(key);
    const created = this.inner.create(key, value, ttlMs);
    if (!this.taken || !key.startsWith('token:')) return created;
    // The first mark after the take: the flow is finished as far as the store will ever tell.
    this.taken = false;
    return created.then(async (result) => {
      this.finished?.();
      await this.pollAnswered;
      return result;
    });
  }

  /** Holds the next read of a flow until `until` (the poll then answers after everything else). */
  holdNextRead(until: Promise<void>): void {
    this.pollReached = new Promise((resolve) => (this.reached = resolve));
    this.heldUntil = until;
  }
  private heldUntil: Promise<void> | undefined;

  async get(key: string): Promise<string | undefined> {
    if (this.heldUntil && key.startsWith('flow:')) {
      const until = this.heldUntil;
      this.heldUntil = undefined;
      this.reached?.();
      await until;
    }
    if (this.pollHeld && key.startsWith('flow:')) {
      this.pollHeld = undefined;
      this.reached?.();
      await this.flowFinished;
    }
    return this.inner.get(key);
  }

  swap(key: string, expected: string, next: string): Promise<boolean> {
    return this.inner.swap(key, expected, next);
  }

  async take(key: string): Promise<string | undefined> {
    const value = await this.inner.take(key);
    if (this.pollAnswered && key.startsWith('flow:')) {
      this.taken = true;
      // A take that writes nothing after it (a flow already gone) lets the poll go on as well.
      if (value === undefined) this.finished?.();
    }
    return value;
  }
}

let emulator: Emulator;
beforeAll(async () => {
  emulator = await startEmulator({ clients: [CLIENT], quiet: true });
});
afterAll(() => emulator?.close());

let running: RunningHost | undefined;
afterEach(async () => {
  await running?.close();
  running = undefined;
});

let counter = 0;

for (const host of HOSTS.filter((h) =>
  ['express5', 'fastify-session', 'fastify-secure-session', 'nest-fastify'].includes(h.id),
)) {
  describe(`${host.label} with ${host.session}: the status race`, () => {
    it('a poll overlapping a same-browser login never says nobody was signed in', async () => {
      const store = new RacingStore();
      running = await host.start(emulator, { store });
      const browser = new Browser(running.url);
      const to = `race-${host.id}-${(counter += 1)}@example.com`;
      expect((await browser.postJson('/auth/magic-link', { email: to })).status).toBe(200);
      const waiting = await browser.get('/auth/waiting');
      expect(waiting.status).toBe(200);

      // The waiting tab's poll has read its session and waits on the flow store...
      let answered!: () => void;
      store.arm(new Promise<void>((resolve) => (answered = resolve)));
      const poll = browser.get('/auth/status', JSON_ACCEPT);
      await store.pollReached;
      // ...while the other tab opens the link: the callback finishes the flow, and the poll answers
      // before the callback does.
      const callback = openLink(browser, linkTo(emulator, to));
      await store.flowFinished;
      const status = (await poll).json<{ status: string }>().status;
      answered();
      expect((await callback).status).toBe(host.successStatus ?? 302);

      // The waiting tab's script: `expired` or `denied` would end it with "Nobody was signed in";
      // `none` reloads the page, which the server sends on as signed in.
      expect(status).toBe('none');
      const reloaded = await browser.get('/auth/waiting');
      expect(reloaded.status).toBe(303);
      expect(reloaded.location).toMatch(/\/me$/);
      expect(await signedIn(host, browser)).toEqual({ user: { id: to } });
    });

    it("a poll answered after the login's answer leaves the browser signed in", async () => {
      const store = new RacingStore();
      running = await host.start(emulator, { store });
      const browser = new Browser(running.url);
      const to = `late-poll-${host.id}-${(counter += 1)}@example.com`;
      expect((await browser.postJson('/auth/magic-link', { email: to })).status).toBe(200);

      // The waiting tab's poll has read its session (before the login) and waits on the flow
      // store, while the other tab opens the link and is signed in; the poll answers last. A
      // session library that saves and re-sends every session it loaded (@fastify/session's
      // `rolling`, on by default) would put the pre-login session's cookie back in the browser.
      let release!: () => void;
      store.holdNextRead(new Promise<void>((resolve) => (release = resolve)));
      const poll = browser.get('/auth/status', JSON_ACCEPT);
      await store.pollReached;
      const callback = await openLink(browser, linkTo(emulator, to));
      expect(callback.status, callback.text).toBe(host.successStatus ?? 302);
      release();
      expect((await poll).status).toBe(200);

      expect(await signedIn(host, browser)).toEqual({ user: { id: to } });
    });

    it('a flow lost from the store still reads as expired', async () => {
      const store = new RacingStore();
      running = await host.start(emulator, { store });
      const browser = new Browser(running.url);
      const to = `lost-${host.id}-${(counter += 1)}@example.com`;
      expect((await browser.postJson('/auth/magic-link', { email: to })).status).toBe(200);
      // Evicted, flushed: nobody finished it, so nobody was signed in.
      for (const key of store.flowKeys) await store.inner.take(key);
      expect((await browser.get('/auth/status', JSON_ACCEPT)).json()).toMatchObject({ status: 'expired' });
    });
  });
}
