// The emulator refuses production-like NODE_ENV values (`Production`, `prod`, `production `), and
// its JSON outbox carries no session token, as the inbox page says.
import { afterEach, describe, expect, it } from 'vitest';
import { startEmulator } from '../../src/emulator/index.js';
import { isProductionLike } from '../../src/emulator/config.js';
import { CLIENT, click, lastEntry, sendLink } from './helpers.js';

describe('production-like NODE_ENV', () => {
  const saved = process.env.NODE_ENV;
  afterEach(() => {
    if (saved === undefined) delete process.env.NODE_ENV;
    else process.env.NODE_ENV = saved;
  });

  it.each(['production', 'Production', 'PRODUCTION', 'production ', ' prod', 'prod', 'Prod-EU'])(
    'refuses to start under NODE_ENV=%j',
    async (value) => {
      process.env.NODE_ENV = value;
      await expect(startEmulator()).rejects.toThrow(/refuses to start.*allowInProduction: true/s);
    },
  );

  it.each(['development', 'test', '', 'staging', 'preproduction'])('starts under NODE_ENV=%j', (value) => {
    expect(isProductionLike(value)).toBe(false);
  });
});

describe('session tokens in pages and JSON', () => {
  it('neither the inbox page nor the JSON outbox shows one by default', async () => {
    const emulator = await startEmulator({ clients: [CLIENT], quiet: true });
    try {
      await sendLink(emulator, { email: 'quiet@example.com' });
      await click(lastEntry(emulator).link);
      const token = lastEntry(emulator).sessionToken;
      expect(token).toEqual(expect.any(String));
      const page = await (await fetch(`${emulator.authUrl}/`)).text();
      const json = await (await fetch(`${emulator.authUrl}/__emulator/outbox`)).text();
      expect(page).toContain('quiet@example.com');
      expect(json).toContain('quiet@example.com');
      for (const text of [page, json]) expect(text).not.toContain(token);
    } finally {
      await emulator.close();
    }
  });

  it('the JSON outbox shows them when a test asks: exposeSessionTokens: true', async () => {
    const emulator = await startEmulator({ clients: [CLIENT], quiet: true, exposeSessionTokens: true });
    try {
      await sendLink(emulator, { email: 'shown@example.com' });
      const body = (await (await fetch(`${emulator.authUrl}/__emulator/outbox`)).json()) as {
        entries: Array<{ sessionToken?: string }>;
      };
      expect(body.entries[0]?.sessionToken).toBe(lastEntry(emulator).sessionToken);
    } finally {
      await emulator.close();
    }
    await expect(startEmulator({ exposeSessionTokens: 'yes' as never })).rejects.toThrow(/exposeSessionTokens/);
  });
});
