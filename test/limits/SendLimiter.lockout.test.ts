// A stranger cannot lock the owner out, and a bombed inbox stays capped: sends are counted per
// destination and client IP (the stranger's pair), and per destination from everyone (the cap).
// Real HTTP from distinct loopback addresses (127.0.0.0/8 is all local on Linux), no proxy.
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DESTINATION_TOTAL_FACTOR } from '../../src/limits/SendLimiter.js';
import { DEFAULT_SEND_LIMITS } from '../../src/limits/index.js';
import { startHarness, type Harness } from '../helpers/harness.js';

let h: Harness;
beforeAll(async () => {
  // The default budgets: 5 per destination and IP, 15 per destination, 20 per IP.
  h = await startHarness();
});
afterAll(async () => {
  await h.close();
});

/** One send() from `from` (a loopback address), as a browser there would post it. */
function sendFrom(
  from: string,
  body: Record<string, string>,
): Promise<{ status: number; body: { error?: { code: string; field?: string } } }> {
  const url = new URL('/auth/magic-link', h.baseUrl);
  const payload = JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      {
        method: 'POST',
        localAddress: from,
        headers: { 'content-type': 'application/json', accept: 'application/json', origin: h.baseUrl },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text ? JSON.parse(text) : {} }));
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}

const linksTo = (to: string) => h.emulator.outbox().filter((e) => e.to === to).length;

describe('limits no stranger can turn against the owner', () => {
  it("a stranger's five sends spend the stranger's budget; the owner asking from their own IP gets a link", async () => {
    const victim = 'owner@lockout.example';
    for (let i = 0; i < DEFAULT_SEND_LIMITS.perDestination.limit; i += 1) {
      expect((await sendFrom('127.0.0.2', { email: victim })).status).toBe(200);
    }
    const sixth = await sendFrom('127.0.0.2', { email: victim });
    expect(sixth.status).toBe(429);
    expect(sixth.body.error).toMatchObject({ code: 'RATE_LIMITED', field: 'email' });
    // The owner, from their own address: a link.
    expect((await sendFrom('127.0.0.3', { email: victim })).status).toBe(200);
    expect(linksTo(victim)).toBe(DEFAULT_SEND_LIMITS.perDestination.limit + 1);
  });

  it('a bombed inbox stops at the cap, however many addresses the sends come from', async () => {
    const inbox = 'bombed@lockout.example';
    const cap = DEFAULT_SEND_LIMITS.perDestination.limit * DESTINATION_TOTAL_FACTOR;
    let host = 10;
    while (linksTo(inbox) < cap) {
      expect((await sendFrom(`127.0.1.${host}`, { email: inbox })).status).toBe(200);
      host += 1;
    }
    const refused = await sendFrom(`127.0.1.${host + 1}`, { email: inbox });
    expect(refused.status).toBe(429);
    expect(refused.body.error).toMatchObject({ code: 'RATE_LIMITED', field: 'email' });
    expect(linksTo(inbox)).toBe(cap);
  });

  it("Gmail's dot, +tag and googlemail.com variants are one inbox for counting, each sent as typed", async () => {
    const variants = [
      'sam.lee@gmail.com',
      'samlee@gmail.com',
      'Sam.Lee+a@googlemail.com',
      's.a.m.l.e.e@gmail.com',
      'samlee+b@gmail.com',
    ];
    for (const email of variants) expect((await sendFrom('127.0.0.4', { email })).status).toBe(200);
    const refused = await sendFrom('127.0.0.4', { email: 'sa.mlee@googlemail.com' });
    expect(refused.status).toBe(429);
    // Sent to the addresses as typed (the emulator keeps them in lower case).
    expect(h.emulator.outbox().some((e) => e.to === 'sam.lee+a@googlemail.com')).toBe(true);
  });
});
