// OTPLESS_SESSION_RESENT on the Fastify host with @fastify/session, over real sockets and the
// emulator. A waiting page's poll that changes nothing gets no session cookie back with
// `rolling: false` (the guide's set-up): no warning. With `rolling: true` (@fastify/session's own
// default) each poll's answer carries the session's cookie again, and the operator is told once,
// however many polls.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator } from '../../src/emulator/index.js';
import type { Emulator } from '../../src/emulator/index.js';
import { Browser } from '../examples/helpers/browser.js';
import { settleWarnings, watchWarnings } from '../helpers/warnings.js';
import { CLIENT, HOSTS } from './hosts.js';

const JSON_ACCEPT = { accept: 'application/json' };
const host = HOSTS.find((h) => h.id === 'fastify-session')!;
const warnings = watchWarnings();

let emulator: Emulator;
beforeAll(async () => {
  emulator = await startEmulator({ clients: [CLIENT], quiet: true });
});
afterAll(() => emulator?.close());

/** A send, then `polls` polls of the waiting page, on the host with `rolling` as given: what each poll's answer set as cookies. */
async function sendThenPoll(rolling: boolean, polls: number): Promise<string[][]> {
  const running = await host.start(emulator, { rolling });
  try {
    const browser = new Browser(running.url);
    expect((await browser.postJson('/auth/magic-link', { email: 'resent@example.com' })).status).toBe(200);
    expect(browser.cookies().sessionId).toBeDefined();
    const cookies: string[][] = [];
    for (let i = 0; i < polls; i += 1) {
      const poll = await browser.get('/auth/status', JSON_ACCEPT);
      expect(poll.status).toBe(200);
      expect(poll.json()).toMatchObject({ status: 'pending' });
      cookies.push(poll.headers.getSetCookie());
    }
    await settleWarnings();
    return cookies;
  } finally {
    await running.close();
  }
}

describe(`${host.label} with ${host.session}: OTPLESS_SESSION_RESENT`, () => {
  it('rolling: false (as the guide registers it): the poll gets no cookie back, and nothing is said', async () => {
    expect(await sendThenPoll(false, 2)).toEqual([[], []]);
    expect(warnings).toEqual([]);
  });

  it("rolling: true (@fastify/session's default): each poll re-sends the session's cookie, and the operator is told once", async () => {
    const cookies = await sendThenPoll(true, 3);
    for (const sent of cookies) expect(sent.join()).toMatch(/^sessionId=/);
    expect(warnings.map((w) => w.code)).toEqual(['OTPLESS_SESSION_RESENT']);
    expect(warnings[0]!.message).toContain('rolling: false');
  });
});
