import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import express from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requireLowRisk } from '../src/index.js';
import { CHANNEL_NAMES } from '../src/diagnostics.js';
import { startEmulator, type Emulator } from '../src/emulator/index.js';
import { CLIENT, clickLink, lastLinkTo, startHarness, type Harness } from './helpers/harness.js';

const seen: Array<{ name: string; message: unknown }> = [];
const listeners = new Map<string, (message: unknown) => void>();
let emulator: Emulator;
let h: Harness;

beforeAll(async () => {
  for (const name of CHANNEL_NAMES) {
    const listener = (message: unknown) => seen.push({ name, message: JSON.parse(JSON.stringify(message ?? {})) });
    listeners.set(name, listener);
    subscribe(name, listener);
  }
  emulator = await startEmulator({ clients: [CLIENT], quiet: true });
  h = await startHarness({
    emulator,
    strategy: { enrich: ['secureInfo'] },
    routes: (app: express.Express) => app.get('/guarded', requireLowRisk(), (_req, res) => res.json({ ok: true })),
  });
});
afterAll(async () => {
  for (const [name, listener] of listeners) unsubscribe(name, listener);
  await h.close();
  await emulator.close();
});

const of = (name: string) => seen.filter((e) => e.name === name).map((e) => e.message as Record<string, unknown>);

describe('diagnostics channels', () => {
  it('tell what happened, and never a code, token, secret, flow id or full destination', async () => {
    const laptop = h.browser();
    // A refused send, a link sent, a login in the same browser, a guard decision.
    await laptop.post('/auth/magic-link').set('accept', 'application/json').send({ email: 'not-an-email' });
    await laptop.post('/auth/magic-link').set('accept', 'application/json').send({ email: 'events@example.com' });
    const callback = await clickLink(lastLinkTo(emulator, 'events@example.com'));
    expect((await laptop.get(callback)).status).toBe(302);
    expect((await laptop.get('/guarded').set('accept', 'application/json')).status).toBe(200);
    // A handoff approved, one denied, and a refused callback.
    const other = h.browser();
    const sent = await other
      .post('/auth/magic-link')
      .set('accept', 'application/json')
      .send({ email: 'hand@example.com' });
    const cb2 = await clickLink(lastLinkTo(emulator, 'hand@example.com'));
    await h.browser().post(cb2).type('form').send({ match: sent.body.match });
    await other.post('/auth/magic-link').set('accept', 'application/json').send({ email: 'deny@example.com' });
    const cb3 = await clickLink(lastLinkTo(emulator, 'deny@example.com'));
    await h.browser().post(cb3).type('form').send({ decision: 'deny' });
    expect((await h.browser().get('/auth/callback?code=x&flow=not-a-flow')).status).toBe(400);

    expect(of('passport-otpless:send:refused')).toContainEqual({ code: 'INVALID_INPUT', status: 400 });
    expect(of('passport-otpless:link:sent')).toContainEqual({
      types: ['EMAIL'],
      to: ['ev•••@example.com'],
      handoff: true,
    });
    expect(of('passport-otpless:login:succeeded')).toContainEqual({ via: 'code', verified: ['EMAIL'], risk: 'allow' });
    expect(of('passport-otpless:login:refused')).toContainEqual({ code: 'INVALID_CODE', status: 400 });
    expect(of('passport-otpless:handoff:approved')).toEqual([{ ageMs: expect.any(Number) }]);
    expect(of('passport-otpless:handoff:denied')).toEqual([{ ageMs: expect.any(Number), code: 'USER_DENIED' }]);
    expect(of('passport-otpless:guard:verdict')).toContainEqual(
      expect.objectContaining({ guard: 'requireLowRisk', route: 'GET /guarded', action: 'allow' }),
    );
    // Service calls as a tracing channel: a start and an end for each, with endpoint, status and duration.
    const ends = of('tracing:passport-otpless:service:call:asyncEnd');
    expect(ends).toContainEqual(
      expect.objectContaining({ endpoint: 'sendMagicLink', status: 200, durationMs: expect.any(Number) }),
    );
    expect(ends).toContainEqual(expect.objectContaining({ endpoint: 'verifyCode', status: 200 }));
    expect(of('tracing:passport-otpless:service:call:start').length).toBeGreaterThanOrEqual(ends.length);

    const everything = JSON.stringify(seen);
    const code = new URL(callback, h.baseUrl).searchParams.get('code')!;
    const flow = new URL(callback, h.baseUrl).searchParams.get('flow')!;
    for (const secret of [CLIENT.clientSecret, code, flow, 'events@example.com', 'hand@example.com']) {
      expect(everything).not.toContain(secret);
    }
    expect(everything).not.toMatch(/token/i);
  });

  it('a failed service call ends with its status and error code', async () => {
    emulator.fault({ path: '/auth/v1/verify/code', status: 503, times: 1 });
    const browser = h.browser();
    await browser.post('/auth/magic-link').set('accept', 'application/json').send({ email: 'down@example.com' });
    const callback = await clickLink(lastLinkTo(emulator, 'down@example.com'));
    expect((await browser.get(callback)).status).toBe(503);
    expect(of('tracing:passport-otpless:service:call:error')).toContainEqual(
      expect.objectContaining({ endpoint: 'verifyCode', status: 503 }),
    );
  });
});
