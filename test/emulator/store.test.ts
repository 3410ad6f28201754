// The stores stay bounded: outbox and logins are capped, expired records are swept on later writes.
import { Agent, request } from 'undici';
import { afterEach, describe, expect, it } from 'vitest';
import { startEmulator, type Emulator } from '../../src/emulator/index.js';
import {
  CLIENT,
  click,
  expectErrorShape,
  lastEntry,
  MINUTE,
  REDIRECT_URI,
  sendLink,
  sessionDetails,
  validateToken,
} from './helpers.js';

const HOUR = 60 * MINUTE;
let emulator: Emulator | undefined;
afterEach(async () => {
  await emulator?.close();
  emulator = undefined;
});

describe('outbox bound', () => {
  it('keeps only the newest maxOutbox entries', async () => {
    emulator = await startEmulator({ quiet: true, maxOutbox: 3 });
    for (let i = 1; i <= 5; i += 1) await sendLink(emulator, { email: `u${i}@example.com` });
    expect(emulator.outbox().map((entry) => entry.to)).toEqual(['u3@example.com', 'u4@example.com', 'u5@example.com']);
    const json = (await (await fetch(`${emulator.authUrl}/__emulator/outbox`)).json()) as { entries: unknown[] };
    expect(json.entries).toHaveLength(3);
  });

  it('defaults to 1000 entries', async () => {
    emulator = await startEmulator({ quiet: true });
    const emu = emulator;
    // Over eight keep-alive sockets: a new socket per send costs more than the send.
    const agent = new Agent({ connections: 8 });
    try {
      await Promise.all(
        Array.from({ length: 1005 }, async (_, i) => {
          const query = new URLSearchParams({
            client_id: CLIENT.clientId,
            client_secret: CLIENT.clientSecret,
            redirect_uri: REDIRECT_URI,
            email: `u${i}@example.com`,
          });
          const response = await request(`${emu.authUrl}/auth/v1/authorize?${query}`, { dispatcher: agent });
          expect(response.statusCode).toBe(200);
          await response.body.text();
        }),
      );
    } finally {
      await agent.close();
    }
    expect(emulator.outbox()).toHaveLength(1000);
  });
});

describe('login bound', () => {
  it('forgets the oldest login beyond maxLogins', async () => {
    emulator = await startEmulator({ quiet: true, maxLogins: 3 });
    const tokens = [1, 2, 3, 4].map(() => emulator!.issueToken());
    const statuses = await Promise.all(tokens.map(async (token) => (await validateToken(emulator!, token)).status));
    expect(statuses).toEqual([400, 200, 200, 200]);
  });
});

describe('sweeping', () => {
  it('answers "expired" right after expiry, and forgets the token an hour later (on the next write)', async () => {
    emulator = await startEmulator({ quiet: true });
    const token = emulator.issueToken();
    emulator.advanceTime(16 * MINUTE);
    expectErrorShape((await validateToken(emulator, token)).body, '7301');
    // Still remembered (session idle time + grace not over) after a write.
    emulator.issueToken();
    expect((await validateToken(emulator, token)).status).toBe(401);

    emulator.advanceTime(2 * HOUR);
    emulator.issueToken();
    const swept = await validateToken(emulator, token);
    expect(swept.status).toBe(400);
    expectErrorShape(swept.body, '7114');
  });

  it('sweeps expired, never-clicked links: the page turns from 410 to 404 and the session token is forgotten', async () => {
    emulator = await startEmulator({ quiet: true });
    await sendLink(emulator, { email: 'old@example.com', expiry: '30' });
    const old = lastEntry(emulator);
    emulator.advanceTime(MINUTE);
    expect((await click(old.link)).status).toBe(410);

    emulator.advanceTime(2 * HOUR);
    await sendLink(emulator, { email: 'new@example.com' });
    expect((await click(old.link)).status).toBe(404);
    expect((await sessionDetails(emulator, old.sessionToken)).body.description).toBe(
      'Request error: Invalid session token',
    );
    // The outbox keeps its log line, and the inbox marks it forgotten.
    expect(emulator.outbox().map((entry) => entry.to)).toEqual(['old@example.com', 'new@example.com']);
    expect(await (await fetch(`${emulator.authUrl}/`)).text()).toContain('forgotten');
  });

  it('keeps a live login while sweeping others', async () => {
    emulator = await startEmulator({ quiet: true });
    const stale = emulator.issueToken();
    emulator.advanceTime(3 * HOUR);
    const fresh = emulator.issueToken();
    expect((await validateToken(emulator, fresh)).status).toBe(200);
    expect((await validateToken(emulator, stale)).status).toBe(400);
  });
});
