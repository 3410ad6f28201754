// The store reader and the service's session token: a login by session token keeps the token
// in the server-side session (so requireServiceSession() can ask about it). A reader of the
// session store must find nothing there that signs anyone in, and the token itself, however it
// was learnt, signs in once.
import expressSession from 'express-session';
import { describe, expect, it } from 'vitest';
import { useSharedEmulator } from '../helpers/sharedEmulator.js';
import { clickLink, lastLinkTo, type Harness } from '../helpers/harness.js';

const shared = useSharedEmulator();

/** Completes a login by link in a browser of its own and returns the service session's token. */
async function serviceSessionOf(h: Harness, email: string): Promise<string> {
  const browser = h.browser();
  await browser.post('/auth/magic-link').set('accept', 'application/json').send({ email }).expect(200);
  await browser.get(await clickLink(lastLinkTo(h.emulator, email))).expect(302);
  return h.emulator
    .outbox()
    .filter((e) => e.to === email)
    .at(-1)!.sessionToken;
}

/** Every session the store holds, as a reader of it sees them (JSON, by session id). */
function readAll(store: expressSession.MemoryStore): Promise<Record<string, Record<string, unknown>>> {
  return new Promise((resolve, reject) =>
    store.all((err, all) =>
      err ? reject(err as Error) : resolve((all ?? {}) as unknown as Record<string, Record<string, unknown>>),
    ),
  );
}

describe('a store reader and a login by session token', () => {
  it('finds no session token in the store, and the token signs in one browser only', async () => {
    const store = new expressSession.MemoryStore();
    const h = await shared.harness({ session: 'express', sessionStore: store });
    const sessionToken = await serviceSessionOf(h, 'reader-victim@example.com');
    const victim = h.browser();
    await victim.post('/auth/callback').set('accept', 'application/json').send({ sessionToken }).expect(302);
    expect((await victim.get('/me')).body.user.email).toBe('reader-victim@example.com');

    // The reader reads every session: the victim's login record is there, its token is not.
    const all = await readAll(store);
    const records = Object.values(all)
      .map((s) => s.otpless as { token?: unknown; via?: unknown } | undefined)
      .filter((r) => r?.via === 'session');
    expect(records).toHaveLength(1);
    const found = records[0]?.token;
    expect(typeof found).toBe('string');

    // What it found, POSTed from a browser of its own, signs nobody in (it did before: the token
    // was kept in clear, never marked used, and fresh while lastActiveAt was).
    const reader = h.browser();
    const tried = await reader.post('/auth/callback').set('accept', 'application/json').send({ sessionToken: found });
    expect(tried.status).toBe(401);
    expect((await reader.get('/me')).status).toBe(401);
    expect(JSON.stringify(all)).not.toContain(sessionToken);

    // Nor does the token itself, learnt any other way: it signed in once, in the victim's browser.
    const again = await h.browser().post('/auth/callback').set('accept', 'application/json').send({ sessionToken });
    expect(again.status).toBe(401);

    // Nor after the victim logged out.
    await victim.post('/logout').expect(200);
    const afterLogout = await reader.post('/auth/callback').set('accept', 'application/json').send({ sessionToken });
    expect(afterLogout.status).toBe(401);
    expect((await reader.get('/me')).status).toBe(401);
  });

  it('judges freshness by when the service session started, not by lastActiveAt, which the check itself moves', async () => {
    const h = await shared.harness({ session: 'express', strategy: { maxAuthAgeMs: 1000 } });
    const startedAt = Date.now();
    const sessionToken = await serviceSessionOf(h, 'reader-stale@example.com');
    // A condition, not a margin: the service session started more than maxAuthAgeMs ago. The
    // emulator keeps it alive (it moves lastActiveAt on every read, get-session-details included).
    while (Date.now() <= startedAt + 1500) await new Promise((resolve) => setTimeout(resolve, 50));
    const browser = h.browser();
    const res = await browser.post('/auth/callback').set('accept', 'application/json').send({ sessionToken });
    expect(res.status).toBe(401);
    expect((await browser.get('/me')).status).toBe(401);
  });
});
