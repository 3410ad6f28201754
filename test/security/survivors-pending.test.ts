// Mutation survivors of session/pending.ts (docs/testing.md). The session's pending sends are a
// stored format: a session written by one instance or release is read by the next (a shared
// session store, or the cookie of cookie-session), so the member's name and the hashes in it are
// pinned here from first principles. And a callback on a route without any session, which
// `crossDevice: 'accept'` allows, reads the (absent) pending sends without failing.
import { createHash, createHmac, hkdfSync } from 'node:crypto';
import express from 'express';
import passportPkg from 'passport';
import supertest from 'supertest';
import { sessionCookie } from '../helpers/sessionCookie.js';
import { describe, expect, it } from 'vitest';
import { CLIENT, clickLink, lastLinkTo } from '../helpers/harness.js';
import { useSharedEmulator } from '../helpers/sharedEmulator.js';

const { harness } = useSharedEmulator();

/** The format's hash: SHA-256, base64url, the first 22 characters (132 bits). */
const pinnedHash = (text: string) => createHash('sha256').update(text).digest('base64url').slice(0, 22);
/**
 * A destination's hash: HMAC-SHA256 of `pending destination\0<value>` under the record key (HKDF
 * of the client secret, label 'session records v1'), the first 16 bytes in base64url.
 */
const pinnedDestination = (text: string) => {
  const key = Buffer.from(hkdfSync('sha256', CLIENT.clientSecret, 'passport-otpless', 'session records v1', 32));
  return createHmac('sha256', key)
    .update(`pending destination\0${text}`)
    .digest()
    .subarray(0, 16)
    .toString('base64url');
};

describe('the pending sends in the session keep their stored format', () => {
  it('one send: `otplessPending` holds its flow, the hashed request id and the hashed destination in lower case', async () => {
    const h = await harness();
    const sent = await h
      .browser()
      .post('/auth/magic-link')
      .set('accept', 'application/json')
      .send({ email: 'Pending.Pin@Example.com' });
    expect(sent.status).toBe(200);
    const delivered = h.emulator.outbox().at(-1);
    const flowId = new URL(delivered?.redirectUri ?? 'http://x').searchParams.get('flow');
    const cookie = sessionCookie<{ otplessPending: Array<Record<string, unknown>> }>(sent);
    expect(cookie).toEqual({
      otplessPending: [
        {
          version: 3,
          // The record key of the harness's client secret, and the flow id sealed under it.
          k: 'AtOu9A5yVOL',
          f: expect.stringMatching(/^[\w-]{16}\.[\w-]{22}\.[\w-]+$/) as string,
          requestIdHashes: [pinnedHash(delivered?.requestId ?? '')],
          destinationHashes: [pinnedDestination('pending.pin@example.com')],
          expiresAt: expect.any(Number) as number,
        },
      ],
    });
    expect(flowId).toMatch(/^[\w-]{22}$/);
    expect(JSON.stringify(cookie)).not.toContain(flowId);
  });
});

describe('a callback on a route with no session at all (crossDevice: accept)', () => {
  it('signs in with a link sent elsewhere, reading no pending send, never a 500', async () => {
    const h = await harness({ strategy: { crossDevice: 'accept' } });
    const sent = await h
      .browser()
      .post('/auth/magic-link')
      .set('accept', 'application/json')
      .send({ email: 'no-session@example.com' });
    expect(sent.status).toBe(200);
    const callback = await clickLink(lastLinkTo(h.emulator, 'no-session@example.com'));
    expect(new URL(callback, 'http://x').searchParams.get('flow')).toBeTruthy();

    // The same strategy on an app with no session middleware, answering the callback statelessly.
    const passport = new passportPkg.Passport();
    passport.use(h.strategy);
    const app = express();
    app.get('/auth/callback', passport.authenticate(h.strategy.name, { session: false }), (req, res) => {
      res.json({ user: req.user });
    });
    app.use((err: { message: string }, _req: express.Request, res: express.Response, _next: express.NextFunction) => {
      res.status(500).json({ error: err.message });
    });
    const res = await supertest(app).get(callback);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ user: { email: 'no-session@example.com' } });
  });
});
