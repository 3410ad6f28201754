// A victim who has a pending link of their own and opens an attacker's callback URL is never
// signed in as the attacker, and keeps their own pending link (findings 6 and the missed bug).
import { describe, expect, it } from 'vitest';
import { clickLink, lastLinkTo, type Harness } from '../helpers/harness.js';
import { harnessPool } from '../helpers/pool.js';
import { allPending } from '../../src/session/pending.js';

const pool = harnessPool();

async function attackerCallback(h: Harness, email: string): Promise<string> {
  const attacker = h.browser();
  await attacker.post('/auth/magic-link').set('accept', 'application/json').send({ email });
  return clickLink(lastLinkTo(h.emulator, email));
}

describe("a victim with a pending link of their own opens the attacker's callback", () => {
  it.each(['handoff', 'refuse'] as const)('%s: not signed in, and their own link still works', async (crossDevice) => {
    const h = await pool.app({ strategy: { crossDevice } });
    const victim = h.browser();
    await victim.post('/auth/magic-link').set('accept', 'application/json').send({ email: 'victim@example.com' });
    const own = await clickLink(lastLinkTo(h.emulator, 'victim@example.com'));
    const forced = await attackerCallback(h, `attacker-${crossDevice}@evil.test`);
    const res = await victim.get(forced);
    expect(res.status).toBe(crossDevice === 'handoff' ? 200 : 403);
    expect((await victim.get('/me')).status).toBe(401);
    expect((await victim.get(own)).status).toBe(302);
    expect((await victim.get('/me')).body.user.email).toBe('victim@example.com');
  });

  it('the query dropped by the service: WRONG_BROWSER after verifying, and their own send stays', async () => {
    const h = await pool.app();
    const emulator = await pool.emulator();
    emulator.setQuirks({ stripRedirectQuery: true });
    try {
      const victim = h.browser();
      await victim.post('/auth/magic-link').set('accept', 'application/json').send({ email: 'victim2@example.com' });
      const own = await clickLink(lastLinkTo(h.emulator, 'victim2@example.com'));
      const forced = await attackerCallback(h, 'attacker2@evil.test');
      expect((await victim.get(forced)).status).toBe(403);
      expect((await victim.get('/me')).status).toBe(401);
      // The forced code took nothing from the victim's session: their own link signs them in.
      expect((await victim.get(own)).status).toBe(302);
      expect((await victim.get('/me')).body.user.email).toBe('victim2@example.com');
    } finally {
      emulator.setQuirks({});
    }
  });

  it('a refused login (verify says no) spends the send: the same link cannot be tried again', async () => {
    const h = await pool.app({
      verify: async () => null,
      routes: (app) => app.get('/pending', (req, res) => res.json({ count: allPending(req.session as never).length })),
    });
    const browser = h.browser();
    await browser.post('/auth/magic-link').set('accept', 'application/json').send({ email: 'refused@example.com' });
    const link = await clickLink(lastLinkTo(h.emulator, 'refused@example.com'));
    expect((await browser.get('/pending')).body.count).toBe(1);
    expect((await browser.get(link)).status).toBe(401);
    // The send was taken before the comparison: the session holds no send any more.
    expect((await browser.get('/pending')).body.count).toBe(0);
  });
});
