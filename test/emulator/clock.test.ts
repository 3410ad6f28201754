// The manual clock: time moves only by advanceTime, so tests can stand exactly on an expiry.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startEmulator, type Emulator } from '../../src/emulator/index.js';
import { click, codeOf, expectErrorShape, lastEntry, MINUTE, sendLink, validateToken, verify } from './helpers.js';

let emulator: Emulator;
beforeAll(async () => {
  emulator = await startEmulator({ clock: 'manual' });
});
beforeEach(() => emulator.reset());
afterAll(() => emulator.close());

/** A clicked link with a 30 s expiry: its code and when it expires. */
async function clickedLink(email: string): Promise<{ code: string; expiresAt: number }> {
  expect((await sendLink(emulator, { email, expiry: '30' })).status).toBe(200);
  const entry = lastEntry(emulator);
  return { code: codeOf(await click(entry.link)), expiresAt: entry.expiresAt };
}

describe("clock: 'manual'", () => {
  it('stands still while real time passes, and moves exactly by advanceTime', async () => {
    const before = emulator.now();
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(emulator.now()).toBe(before);
    emulator.advanceTime(1234);
    expect(emulator.now()).toBe(before + 1234);
  });

  it('accepts a code at expiresAt - 1 ms', async () => {
    const { code, expiresAt } = await clickedLink('early@example.com');
    emulator.advanceTime(expiresAt - 1 - emulator.now());
    expect(emulator.now()).toBe(expiresAt - 1);
    expect((await verify(emulator, code)).status).toBe(200);
  });

  it('refuses a code at exactly expiresAt with 401 7301', async () => {
    const { code, expiresAt } = await clickedLink('late@example.com');
    emulator.advanceTime(expiresAt - emulator.now());
    expect(emulator.now()).toBe(expiresAt);
    const { status, body } = await verify(emulator, code);
    expect(status).toBe(401);
    expectErrorShape(body, '7301');
  });

  it('opens a link at expiresAt - 1 ms and shows the expired page at expiresAt', async () => {
    await sendLink(emulator, { email: 'link@example.com', expiry: '30' });
    const entry = lastEntry(emulator);
    expect(entry.expiresAt - entry.createdAt).toBe(30_000);
    emulator.advanceTime(30_000 - 1);
    expect((await click(entry.link)).status).toBe(302);
    emulator.advanceTime(1);
    expect((await click(entry.link)).status).toBe(410);
  });

  it('expires a token exactly tokenTtlMs after the login', async () => {
    const token = emulator.issueToken();
    emulator.advanceTime(15 * MINUTE - 1);
    expect((await validateToken(emulator, token)).status).toBe(200);
    emulator.advanceTime(1);
    expect((await validateToken(emulator, token)).status).toBe(401);
  });
});

describe('clock option', () => {
  it("defaults to 'real' (time runs) and rejects an unknown mode", async () => {
    const real = await startEmulator();
    try {
      const before = real.now();
      await new Promise((resolve) => setTimeout(resolve, 30));
      expect(real.now()).toBeGreaterThan(before);
    } finally {
      await real.close();
    }
    await expect(startEmulator({ clock: 'frozen' as never })).rejects.toThrow(/clock must be one of real, manual/);
  });
});
