// The store writer: someone who reads and writes every session and every flow of an app that
// keeps its sessions server-side (express-session) and its flows in a shared store, and who holds
// the cookies of its own sessions only. It owns every session's content (that is the session
// library's trust), but through the package it signs in as nobody else: no forged or copied
// login record passes a guard, no approval is replayed or extended, no flow is rebound, and a
// wrong number stays wrong. Each move is played the way it worked before the records were keyed
// and sealed, so each `it` fails on that code.
import expressSession from 'express-session';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { requireIdentity, requireLowRisk } from '../../src/index.js';
import { startEmulator, type Emulator } from '../../src/emulator/index.js';
import { CLIENT, clickLink, lastLinkTo, loginVia, startHarness, type Harness } from '../helpers/harness.js';
import { WatchedFlowStore } from '../helpers/watchedFlowStore.js';

type Session = Record<string, unknown>;
type Browser = ReturnType<Harness['browser']>;

const json = { accept: 'application/json' };

let emulator: Emulator;
beforeAll(async () => {
  emulator = await startEmulator({ clients: [CLIENT], quiet: true });
});
afterAll(async () => {
  await emulator?.close();
});
afterEach(() => {
  vi.useRealTimers();
});

/** An app as docs/several-instances.md sets it up, with both stores within the writer's reach. */
async function app() {
  const sessions = new expressSession.MemoryStore();
  const flows = new WatchedFlowStore();
  const h = await startHarness({
    emulator,
    session: 'express',
    sessionStore: sessions,
    strategy: { store: flows, limits: false, enrich: ['secureInfo'] },
    routes: (a) => {
      a.get('/sid', (req, res) => res.json({ sid: req.sessionID }));
      a.get('/needs-mobile', requireIdentity('MOBILE'), (req, res) => res.json({ ok: true, user: req.user }));
      a.get('/low-risk', requireLowRisk(), (req, res) => res.json({ ok: true, user: req.user }));
    },
  });
  const stored = (sessions as unknown as { sessions: Record<string, string> }).sessions;
  /** The writer's hands on the session store. */
  const store = {
    async sidOf(browser: Browser): Promise<string> {
      return (await browser.get('/sid')).body.sid as string;
    },
    read(sid: string): Session {
      return JSON.parse(stored[sid]!) as Session;
    },
    write(sid: string, session: Session): void {
      stored[sid] = JSON.stringify(session);
    },
  };
  return { h, store, flows };
}

/** The writer's browser with a session of its own (and its cookie): it asks for a link to itself. */
async function withSession(browser: Browser): Promise<Browser> {
  expect((await browser.post('/auth/magic-link').set(json).send({ email: 'eve@example.com' })).status).toBe(200);
  return browser;
}

/** The newest flow key the store was asked to create. */
function newestFlowKey(flows: WatchedFlowStore): string {
  return flows.keys.filter((k) => k.startsWith('flow:')).at(-1)!;
}

/** Where a flow record holds something in clear, the writer changes it; a sealed one it can only copy. */
function edited(raw: string, change: (record: Record<string, unknown>) => void): string {
  try {
    const record = JSON.parse(raw) as Record<string, unknown>;
    change(record);
    return JSON.stringify(record);
  } catch {
    return raw;
  }
}

describe('a writer of the session store, with the cookies of its own sessions only', () => {
  let h: Harness;
  afterEach(async () => h?.close());

  it('copies a victim’s login record and user into its own session: no guard passes', async () => {
    const { h: app1, store } = await app();
    h = app1;
    const alice = h.browser();
    expect((await loginVia(h, alice, { mobile: '+919812345678' }, 'clean')).status).toBe(302);
    expect((await alice.get('/needs-mobile').set(json)).status).toBe(200);
    expect((await alice.get('/low-risk').set(json)).status).toBe(200);
    const eve = h.browser();
    expect((await loginVia(h, eve, { email: 'eve@example.com' }, 'clean')).status).toBe(302);

    const victim = store.read(await store.sidOf(alice));
    const own = await store.sidOf(eve);
    store.write(own, { ...store.read(own), passport: victim.passport, otpless: victim.otpless });

    // Passport believes the session (the session store is trusted by its library) ...
    expect((await eve.get('/me')).body.user.phone).toBe('+919812345678');
    // ... the package's guards do not.
    for (const route of ['/needs-mobile', '/low-risk']) {
      const res = await eve.get(route).set(json);
      expect(res.status, route).not.toBe(200);
      expect(res.body.ok, route).toBeUndefined();
    }
    // The victim's own session is untouched and still passes.
    expect((await alice.get('/needs-mobile').set(json)).status).toBe(200);
  });

  it('adds an identity and clean signals to its own record: no guard passes', async () => {
    const { h: app1, store } = await app();
    h = app1;
    const alice = h.browser();
    await loginVia(h, alice, { email: 'alice@example.com' }, 'clean');
    const eve = h.browser();
    await loginVia(h, eve, { email: 'eve@example.com' }, 'vpn');
    expect((await eve.get('/low-risk').set(json)).status).toBe(403);

    const cleanRisk = (store.read(await store.sidOf(alice)).otpless as Session).risk;
    const own = await store.sidOf(eve);
    const session = store.read(own);
    const record = session.otpless as Session;
    store.write(own, { ...session, otpless: { ...record, verified: ['EMAIL', 'MOBILE'], risk: cleanRisk } });

    for (const route of ['/needs-mobile', '/low-risk']) {
      const res = await eve.get(route).set(json);
      expect(res.status, route).not.toBe(200);
      expect(res.body.ok, route).toBeUndefined();
    }
  });
});

describe('a writer of the session and flow stores, against a cross-device approval', () => {
  let h: Harness;
  afterEach(async () => h?.close());

  /**
   * Alice asks on her laptop and approves on her phone; the writer reads her approved flow and her
   * session's pending send before her laptop finishes, then her laptop signs in.
   */
  async function approvedAndFinished() {
    const { h: app1, store, flows } = await app();
    h = app1;
    const laptop = h.browser();
    const sent = await laptop.post('/auth/magic-link').set(json).send({ email: 'alice@example.com' });
    expect(sent.status).toBe(200);
    const flowKey = newestFlowKey(flows);
    const callback = await clickLink(lastLinkTo(h.emulator, 'alice@example.com'));
    const phone = await h.browser().post(callback).type('form').send({ match: sent.body.match });
    expect(phone.text).toContain('You are signed in on your computer');

    const approved = (await flows.inner.get(flowKey))!;
    const pending = store.read(await store.sidOf(laptop)).otplessPending as Session[];
    expect((await laptop.get('/auth/callback')).status).toBe(302);
    expect((await laptop.get('/me')).body.user.email).toBe('alice@example.com');
    const expiresAt = pending[0]!.expiresAt as number;
    return { store, flows, flowKey, approved, pending, expiresAt };
  }

  it('writes the approval it read back, and Alice’s pending send into its own session: no login', async () => {
    const { store, flows, flowKey, approved, pending } = await approvedAndFinished();
    const eve = await withSession(h.browser());
    store.write(await store.sidOf(eve), { ...store.read(await store.sidOf(eve)), otplessPending: pending });
    await flows.overwrite(flowKey, approved, 600_000);

    const finished = await eve.get('/auth/callback').set(json);
    expect(finished.status).not.toBe(302);
    expect(finished.status).toBeGreaterThanOrEqual(400);
    expect((await eve.get('/me')).status).toBe(401);
  });

  it('writes the approval back after the link expired, its expiry moved on: no login', async () => {
    const { store, flows, flowKey, approved, pending, expiresAt } = await approvedAndFinished();
    const eve = await withSession(h.browser());
    const later = expiresAt + 3_600_000;
    const extended = pending.map((p) => ({ ...p, expiresAt: later }));
    store.write(await store.sidOf(eve), { ...store.read(await store.sidOf(eve)), otplessPending: extended });
    await flows.overwrite(
      flowKey,
      edited(approved, (r) => (r.expiresAt = later)),
      7_200_000,
    );
    flows.now = expiresAt + 60_000;
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(expiresAt + 60_000);

    const finished = await eve.get('/auth/callback').set(json);
    expect(finished.status).not.toBe(302);
    expect(finished.status).toBeGreaterThanOrEqual(400);
    expect((await eve.get('/me')).status).toBe(401);
  });

  it('rebinds Alice’s waiting flow to its own sends and resets each wrong number: no approval', async () => {
    const { h: app1, flows } = await app();
    h = app1;
    const laptop = h.browser();
    const sent = await laptop.post('/auth/magic-link').set(json).send({ email: 'alice@example.com' });
    const aliceKey = newestFlowKey(flows);
    // Even given the flow id (sessions no longer name it), and the number Alice's laptop shows.
    const flowId = new URL(await clickLink(lastLinkTo(h.emulator, 'alice@example.com')), h.baseUrl).searchParams.get(
      'flow',
    )!;
    const match = sent.body.match as string;
    const wrong = match === '10' ? '11' : '10';

    const eve = h.browser();
    const answers: string[] = [];
    for (const guess of [wrong, match]) {
      // A send of Eve's own, whose code she holds; its flow record names its send.
      await eve.post('/auth/magic-link').set(json).send({ email: 'eve@example.com' });
      const eveRecord = (await flows.inner.get(newestFlowKey(flows)))!;
      const code = new URL(await clickLink(lastLinkTo(h.emulator, 'eve@example.com')), h.baseUrl).searchParams.get(
        'code',
      )!;
      const before = (await flows.inner.get(aliceKey)) ?? '';
      // Alice's flow made to name Eve's send (or, sealed, replaced by Eve's record whole).
      const rebound = edited(before, (r) => (r.sendIds = (JSON.parse(eveRecord) as Session).sendIds));
      await flows.overwrite(aliceKey, rebound === before ? eveRecord : rebound, 600_000);
      const res = await eve
        .post(`/auth/callback?code=${code}&flow=${flowId}`)
        .type('form')
        .set(json)
        .send({ match: guess });
      answers.push(String(res.body.approval));
      // The wrong number denied the flow: the writer puts back the record from before the guess.
      if (guess === wrong) await flows.overwrite(aliceKey, rebound === before ? eveRecord : rebound, 600_000);
    }
    expect(answers).not.toContain('approved');
    expect((await laptop.get('/auth/status')).body.status).not.toBe('approved');
  });
});
