import { describe, expect, it } from 'vitest';
import { startEmulator } from '../../src/emulator/index.js';
import { CLIENT, clickLink, lastLinkTo, startHarness } from '../helpers/harness.js';
import { useSharedEmulator } from '../helpers/sharedEmulator.js';

// The spec's third exchange: a login by the service's session token (get-session-details),
// POSTed from a page of this site. The session token is the one a completed login's frontend
// holds; the emulator's outbox shows it to tests. The guard on that session,
// requireServiceSession(), is tested in test/guards/requireServiceSession.test.ts.

const shared = useSharedEmulator();

/** Completes a login by link in one browser and returns the service session's token. */
async function completedSession(h: Awaited<ReturnType<typeof shared.harness>>, email: string): Promise<string> {
  const browser = h.browser();
  await browser.post('/auth/magic-link').set('accept', 'application/json').send({ email }).expect(200);
  const signedIn = await browser.get(await clickLink(lastLinkTo(h.emulator, email)));
  expect(signedIn.status).toBe(302);
  const entry = h.emulator
    .outbox()
    .filter((e) => e.to === email)
    .at(-1)!;
  return entry.sessionToken;
}

// The harness mounts the callback by hand (Passport's own answers): a refusal is its status.
describe('login by session token', () => {
  it('signs a same-origin POST in, with the identities the service dates as verified', async () => {
    const h = await shared.harness({ session: 'express' });
    const sessionToken = await completedSession(h, 'session-1@example.com');
    const other = h.browser();
    const res = await other.post('/auth/callback').set('accept', 'application/json').send({ sessionToken });
    expect(res.status).toBe(302);
    const me = await other.get('/me');
    expect(me.status).toBe(200);
    expect(me.body.user.email).toBe('session-1@example.com');
    expect(me.body.record.verified).toEqual(['EMAIL']);
  });

  it('refuses a session token from another site before asking the service, and one the service does not know', async () => {
    const h = await shared.harness({ session: 'express' });
    const sessionToken = await completedSession(h, 'session-2@example.com');
    const cross = await h
      .browser()
      .post('/auth/callback')
      .set('origin', 'https://evil.example')
      .set('accept', 'application/json')
      .send({ sessionToken });
    expect(cross.status).toBe(403);
    const unknown = await h
      .browser()
      .post('/auth/callback')
      .set('accept', 'application/json')
      .send({ sessionToken: 'not-a-session-of-the-service' });
    expect(unknown.status).toBe(401);
    expect(JSON.stringify(unknown.body)).not.toContain('not-a-session-of-the-service');
  });

  it('never reads a session token from the URL, nor beside a code', async () => {
    const h = await shared.harness({ session: 'express' });
    const inQuery = await h.browser().get('/auth/callback?sessionToken=abc').set('accept', 'application/json');
    expect(inQuery.status).toBe(400);
    const both = await h
      .browser()
      .post('/auth/callback')
      .set('accept', 'application/json')
      .send({ sessionToken: 'abc', code: 'def' });
    expect(both.status).toBe(400);
  });

  it('refuses a session the service last saw active longer ago than maxAuthAgeMs', async () => {
    // The emulator's clock stands still from its start: its lastActiveAt grows old on ours.
    const emulator = await startEmulator({ clients: [CLIENT], quiet: true, clock: 'manual' });
    const startedAt = Date.now();
    const h = await startHarness({ emulator, session: 'express', strategy: { maxAuthAgeMs: 1000 } });
    try {
      const sessionToken = await completedSession(h, 'session-stale@example.com');
      // Waits for a condition, not a margin: the emulator's "now" is behind ours by > 1 s.
      while (Date.now() <= startedAt + 1500) await new Promise((resolve) => setTimeout(resolve, 50));
      const res = await h.browser().post('/auth/callback').set('accept', 'application/json').send({ sessionToken });
      expect(res.status).toBe(401);
      expect((await h.browser().get('/me')).status).toBe(401);
    } finally {
      await h.close();
      await emulator.close();
    }
  });
});
