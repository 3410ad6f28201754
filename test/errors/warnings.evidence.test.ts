// Warnings about the service are the operator's alarms: only an answer of the service may raise
// them, never what a visitor sends. A stranger's stray callback must leave the log silent.
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Emulator } from '../../src/emulator/index.js';
import { clickLink, lastLinkTo, type Harness } from '../helpers/harness.js';
import { useSharedEmulator } from '../helpers/sharedEmulator.js';
import { settleWarnings as settle, watchWarnings } from '../helpers/warnings.js';

const pool = useSharedEmulator();
let emulator: Emulator;
beforeAll(() => {
  emulator = pool.emulator();
});
const warnings = watchWarnings();
afterEach(() => {
  warnings.length = 0;
});

const app = (): Promise<Harness> => pool.harness();

async function ask(h: Harness, email: string) {
  const browser = h.browser();
  const sent = await browser.post('/auth/magic-link').set('accept', 'application/json').send({ email });
  expect(sent.status).toBe(200);
  return browser;
}

// The first tests run before any warning of this file's process: warnOnce cannot have used up a key.
describe('warnings only on evidence', () => {
  it('a stray /auth/callback?code=whatever after asking for a link: refused, and nothing is logged', async () => {
    const h = await app();
    const browser = await ask(h, 'stray@example.com');
    const res = await browser.get('/auth/callback?code=whatever').set('accept', 'application/json');
    expect(res.status).toBe(401);
    await settle();
    expect(warnings).toEqual([]);
  });

  it('a code-only JSON POST (a page that left the flow out) signs in, and nothing is logged', async () => {
    const h = await app();
    const browser = await ask(h, 'codeonly@example.com');
    const code = new URL(await clickLink(lastLinkTo(emulator, 'codeonly@example.com')), h.baseUrl).searchParams.get(
      'code',
    );
    const res = await browser.post('/auth/callback').set('accept', 'application/json').send({ code });
    expect(res.status).toBe(302);
    expect((await browser.get('/me')).body.user.email).toBe('codeonly@example.com');
    await settle();
    expect(warnings).toEqual([]);
  });

  it("a code-only JSON POST with a stranger's code: refused, and nothing is logged", async () => {
    const h = await app();
    const browser = await ask(h, 'codeonly2@example.com');
    await ask(h, 'other@example.com');
    const other = new URL(await clickLink(lastLinkTo(emulator, 'other@example.com')), h.baseUrl);
    const res = await browser
      .post('/auth/callback')
      .set('accept', 'application/json')
      .send({ code: other.searchParams.get('code') });
    expect(res.status).toBe(403);
    await settle();
    expect(warnings).toEqual([]);
  });

  it('a service that drops the query of redirect_uri, proved by a verified link: one warning', async () => {
    const h = await app();
    emulator.setQuirks({ stripRedirectQuery: true });
    const browser = await ask(h, 'dropped@example.com');
    const callback = await clickLink(lastLinkTo(emulator, 'dropped@example.com'));
    expect(callback).not.toContain('flow=');
    expect((await browser.get(callback)).status).toBe(302);
    await settle();
    expect(warnings.map((w) => w.code)).toEqual(['OTPLESS_FLOW_PARAM_MISSING']);
  });
});
