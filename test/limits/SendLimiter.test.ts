// SendLimiter in memory on a clock the test moves (its internal third argument): the window
// boundaries, the retry-after it reports, the pairs per (destination, IP) under the 3x cap, and
// resets. No wall clock: every time below is the test's.
import { describe, expect, it } from 'vitest';
import { DESTINATION_TOTAL_FACTOR, SendLimiter } from '../../src/limits/SendLimiter.js';
import type { SendDecision } from '../../src/limits/SendLimiter.js';

const MINUTE = 60_000;

function limiterAt(options: ConstructorParameters<typeof SendLimiter>[0] = {}) {
  const clock = { now: 1_000_000 };
  const limiter = new SendLimiter(options, undefined, () => clock.now);
  return { limiter, clock };
}

const refused = (d: SendDecision) => (d.allowed ? undefined : { by: d.by, retryAfterSeconds: d.retryAfterSeconds });

describe('SendLimiter windows (memory)', () => {
  it('counts in a fixed window from the first send: refused until its last ms, allowed at its end', async () => {
    const { limiter, clock } = limiterAt({ perDestination: { limit: 2, windowSeconds: 60 }, perIp: false });
    const start = clock.now;
    expect((await limiter.take('198.51.100.1', ['w@example.com'])).allowed).toBe(true);
    clock.now += 30_000;
    expect((await limiter.take('198.51.100.1', ['w@example.com'])).allowed).toBe(true);
    clock.now = start + MINUTE - 1;
    // Retry-After is rounded up to a whole second, at least 1.
    expect(refused(await limiter.take('198.51.100.1', ['w@example.com']))).toEqual({
      by: 'email',
      retryAfterSeconds: 1,
    });
    clock.now = start + MINUTE;
    expect((await limiter.take('198.51.100.1', ['w@example.com'])).allowed).toBe(true);
  });

  it('reports the time left in the window of the budget that refused, in whole seconds rounded up', async () => {
    const { limiter, clock } = limiterAt({
      perDestination: { limit: 1, windowSeconds: 600 },
      perIp: { limit: 2, windowSeconds: 900 },
    });
    await limiter.take('198.51.100.2', ['+14155550101']);
    clock.now += 100_500;
    expect(refused(await limiter.take('198.51.100.2', ['+14155550101']))).toEqual({
      by: 'mobile',
      retryAfterSeconds: 500,
    });
    await limiter.take('198.51.100.2', ['+14155550102']);
    clock.now += 1_000;
    // The client's budget is checked first: its window started 101.5 s ago, 798.5 s are left.
    expect(refused(await limiter.take('198.51.100.2', ['+14155550103']))).toEqual({
      by: 'ip',
      retryAfterSeconds: 799,
    });
  });

  it('counts a refused send against its IP alone, never a destination; a refund gives the destination back once, never the IP', async () => {
    const { limiter } = limiterAt({
      perDestination: { limit: 1, windowSeconds: 60 },
      perIp: { limit: 4, windowSeconds: 60 },
    });
    const first = await limiter.take('198.51.100.3', ['a@example.com']);
    expect(first.allowed).toBe(true);
    // b is free, a is spent: b is not counted, the IP is (the attempt was made).
    expect(refused(await limiter.take('198.51.100.3', ['b@example.com', 'a@example.com']))?.by).toBe('email');
    expect((await limiter.take('198.51.100.3', ['b@example.com'])).allowed).toBe(true);
    // The service refused the first send: a gets it back (a second refund gives nothing more) ...
    if (first.allowed) {
      await first.refund();
      await first.refund();
    }
    expect((await limiter.take('198.51.100.3', ['a@example.com'])).allowed).toBe(true);
    // ... but the IP's count is of attempts: the refused ones still count, so its 4 are spent.
    expect(refused(await limiter.take('198.51.100.3', ['c@example.com']))?.by).toBe('ip');
  });

  it('a flood of refused sends from one IP spends that IP, and no one else', async () => {
    const { limiter } = limiterAt({
      perDestination: { limit: 1, windowSeconds: 60 },
      perIp: { limit: 5, windowSeconds: 60 },
    });
    expect((await limiter.take('198.51.100.4', ['capped@example.com'])).allowed).toBe(true);
    // Four more tries at the spent destination: each refused, each counted against this IP.
    for (let i = 0; i < 4; i++) {
      expect(refused(await limiter.take('198.51.100.4', ['capped@example.com']))?.by).toBe('email');
    }
    expect(refused(await limiter.take('198.51.100.4', ['fresh@example.com']))?.by).toBe('ip');
    expect((await limiter.take('198.51.100.5', ['fresh@example.com'])).allowed).toBe(true);
  });

  it('a service that refuses every send cannot lift the per-IP budget: each try counts', async () => {
    const { limiter } = limiterAt({ perDestination: false, perIp: { limit: 5, windowSeconds: 60 } });
    let tries = 0;
    for (;;) {
      const decision = await limiter.take('198.51.100.9', [`try${tries}@example.com`]);
      if (!decision.allowed) {
        expect(decision.by).toBe('ip');
        break;
      }
      tries += 1;
      await decision.refund();
      if (tries > 50) break;
    }
    expect(tries).toBe(5);
  });

  it("counts Gmail's dots, +tags and googlemail.com as one destination", async () => {
    const { limiter } = limiterAt({ perDestination: { limit: 2, windowSeconds: 60 }, perIp: false });
    expect((await limiter.take('198.51.100.4', ['Sam.Lee@gmail.com'])).allowed).toBe(true);
    expect((await limiter.take('198.51.100.4', ['samlee+x@googlemail.com'])).allowed).toBe(true);
    expect(refused(await limiter.take('198.51.100.4', ['s.amlee@GMAIL.com']))?.by).toBe('email');
  });
});

describe("SendLimiter pairs: a stranger spends their own budget, and only the cap reaches the owner's", () => {
  const limit = 5;
  const cap = limit * DESTINATION_TOTAL_FACTOR;

  it("a stranger's IP spends its own pair; the owner's stays whole until the destination's cap", async () => {
    const { limiter } = limiterAt({ perDestination: { limit, windowSeconds: 900 }, perIp: false });
    const victim = 'owner@example.com';
    for (let i = 0; i < limit; i++) expect((await limiter.take('203.0.113.66', [victim])).allowed).toBe(true);
    expect(refused(await limiter.take('203.0.113.66', [victim]))?.by).toBe('email');
    // The same stranger from another address in their /64 is the same client.
    expect(refused(await limiter.take('2001:db8:1:2::1', [victim]))).toBeUndefined();
    expect(refused(await limiter.take('2001:db8:1:2::ffff', [victim]))).toBeUndefined();
    // The owner: their whole pair, from their own address.
    for (let i = 0; i < limit; i++) expect((await limiter.take('198.51.100.10', [victim])).allowed).toBe(true);
    expect(refused(await limiter.take('198.51.100.10', [victim]))?.by).toBe('email');
    // Sends from many more strangers stop at the cap, for everyone: the owner's new address too.
    let sent = 2 * limit + 2;
    for (let host = 1; sent < cap; host++, sent++) {
      expect((await limiter.take(`192.0.2.${host}`, [victim])).allowed).toBe(true);
    }
    expect(refused(await limiter.take('192.0.2.200', [victim]))?.by).toBe('email');
    expect(refused(await limiter.take('198.51.100.11', [victim]))?.by).toBe('email');
  });

  it('a reset (a login went through) ends the count and every pair at once; a later window starts afresh', async () => {
    const { limiter, clock } = limiterAt({ perDestination: { limit: 2, windowSeconds: 60 }, perIp: false });
    const d = '+14155550120';
    for (const ip of ['203.0.113.1', '203.0.113.1', '203.0.113.2', '203.0.113.2']) {
      expect((await limiter.take(ip, [d])).allowed).toBe(true);
    }
    expect(refused(await limiter.take('203.0.113.1', [d]))?.by).toBe('mobile');
    clock.now += 10_000;
    // However the number is written.
    await limiter.resetDestination('+1 415 555 0120');
    for (const ip of ['203.0.113.1', '203.0.113.1', '203.0.113.2']) {
      expect((await limiter.take(ip, [d])).allowed).toBe(true);
    }
    expect(refused(await limiter.take('203.0.113.1', [d]))?.by).toBe('mobile');
    // A second reset ends the pairs counted since the first.
    await limiter.resetDestination(d);
    expect((await limiter.take('203.0.113.1', [d])).allowed).toBe(true);
    // Past every window: nothing is left of any of it.
    clock.now += 5 * MINUTE;
    for (const ip of ['203.0.113.1', '203.0.113.1', '203.0.113.2', '203.0.113.2']) {
      expect((await limiter.take(ip, [d])).allowed).toBe(true);
    }
  });

  it('holds no record or timer per key: 20,000 distinct sends leave no timer behind', async () => {
    const { limiter, clock } = limiterAt({ perIp: { limit: 1_000_000, windowSeconds: 900 } });
    const handles = () => process.getActiveResourcesInfo().filter((r) => r === 'Timeout').length;
    const before = handles();
    for (let i = 0; i < 20_000; i++) {
      expect((await limiter.take('203.0.113.9', [`many-${i}@example.com`])).allowed).toBe(true);
      clock.now += 1;
    }
    expect(handles()).toBe(before);
  });
});
