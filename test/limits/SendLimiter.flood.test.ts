// A flood degrades, it does not lock out: the memory table at its bound gives up the least
// telling counts for a new visitor's, and keeps the spent ones that refuse the flooders.
// On a clock the test holds still (the limiter's third argument): the whole flood is in one
// window, no wall clock.
import { describe, expect, it } from 'vitest';
import { SendLimiter } from '../../src/limits/SendLimiter.js';
import type { SendDecision } from '../../src/limits/SendLimiter.js';

const by = (d: SendDecision) => (d.allowed ? 'allowed' : d.by);

function floodedLimiter() {
  const clock = { now: 5_000_000 };
  const limiter = new SendLimiter(
    { maxCounts: 1_000, perIp: { limit: 20, windowSeconds: 900 }, perDestination: { limit: 5, windowSeconds: 900 } },
    undefined,
    () => clock.now,
  );
  return { limiter, clock };
}

/** `sends` sends, each from its own address of 10.x to its own destination: three new counts each. */
async function flood(limiter: SendLimiter, from: number, sends: number): Promise<number> {
  let allowed = 0;
  for (let i = from; i < from + sends; i++) {
    const ip = `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`;
    if ((await limiter.take(ip, [`flood${i}@attack.example`])).allowed) allowed += 1;
  }
  return allowed;
}

describe('the memory send-limit table under a flood', () => {
  it('full, it still serves a new visitor their first sends, and keeps refusing the flooder and the bombed inbox', async () => {
    const { limiter } = floodedLimiter();
    // The flooder spends its address's 20 sends, and a bombed inbox its cap of 15 (3 x 5).
    for (let i = 0; i < 20; i++)
      expect(by(await limiter.take('203.0.113.66', [`mine${i}@attack.example`]))).toBe('allowed');
    expect(by(await limiter.take('203.0.113.66', ['one-more@attack.example']))).toBe('ip');
    for (let i = 0; i < 15; i++)
      expect(by(await limiter.take(`198.51.100.${i + 1}`, ['victim@example.com']))).toBe('allowed');
    expect(by(await limiter.take('198.51.100.200', ['victim@example.com']))).toBe('email');
    // 2,000 more sends of three new counts each: six times the table's 1,000.
    expect(await flood(limiter, 0, 2_000)).toBe(2_000);
    // A visitor never seen: served, and again (their own counts are kept while they are in use).
    expect(by(await limiter.take('192.0.2.10', ['ada@example.com']))).toBe('allowed');
    expect(by(await limiter.take('192.0.2.10', ['ada@example.com']))).toBe('allowed');
    // The flooder and the bombed inbox: still refused, their spent counts outlived the flood.
    expect(by(await limiter.take('203.0.113.66', ['yet-another@attack.example']))).toBe('ip');
    expect(by(await limiter.take('198.51.100.201', ['victim@example.com']))).toBe('email');
    // And again after another flood of 2,000.
    expect(await flood(limiter, 2_000, 2_000)).toBe(2_000);
    expect(by(await limiter.take('192.0.2.11', ['grace@example.com']))).toBe('allowed');
    expect(by(await limiter.take('203.0.113.66', ['and-more@attack.example']))).toBe('ip');
    expect(by(await limiter.take('198.51.100.202', ['victim@example.com']))).toBe('email');
  });

  it('a visitor refused at a spent destination is counted against their own address, not the table', async () => {
    const { limiter } = floodedLimiter();
    for (let i = 0; i < 15; i++) await limiter.take(`198.51.100.${i + 1}`, ['victim@example.com']);
    // One address hammering the capped inbox: each refused try counts against it, until its 20 are spent.
    let tries = 0;
    while (by(await limiter.take('203.0.113.77', ['victim@example.com'])) === 'email') tries += 1;
    expect(tries).toBe(20);
    expect(by(await limiter.take('203.0.113.77', ['other@example.com']))).toBe('ip');
    expect(by(await limiter.take('203.0.113.78', ['other@example.com']))).toBe('allowed');
  });
});
