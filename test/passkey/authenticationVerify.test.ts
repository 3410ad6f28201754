// A sign-in with a passkey checked on the server, with answers signed in Node as an authenticator
// signs them: a good one goes through and moves the counter on; the challenge is single use and
// this browser's (its cookie), and each open tab keeps its own; a wrong origin or RP ID, an unknown passkey, another user's
// handle, a bad signature and a counter that did not move on are each refused with their code;
// 0 -> 0 passes.
import { describe, expect, it } from 'vitest';
import { MemoryFlowStore } from '../../src/index.js';
import { authenticationOptions } from '../../src/passkey/authenticationOptions.js';
import { authenticationVerify, counterWentBack } from '../../src/passkey/authenticationVerify.js';
import type { PasskeyContext } from '../../src/passkey/context.js';
import { checkPasskeyOptions } from '../../src/passkey/options.js';
import type { HttpRequest } from '../../src/web/request.js';
import { SoftAuthenticator } from '../helpers/softAuthenticator.js';

const ORIGIN = 'http://localhost:3000';

async function setUp(counter = 0) {
  const store = new MemoryFlowStore();
  const settings = checkPasskeyOptions('test', true, `${ORIGIN}/auth/callback`, store)!;
  const ctx: PasskeyContext = { settings, store, cookiePath: '/auth/passkey', handleKey: Buffer.alloc(32, 1) };
  const device = new SoftAuthenticator();
  await settings.credentials.save({
    id: device.id,
    userId: 'ana@example.com',
    userHandle: 'dXNlci1oYW5kbGU',
    publicKey: device.publicKeyCose.toString('base64url'),
    counter,
    transports: ['internal'],
    identities: [{ type: 'EMAIL', value: 'ana@example.com' }],
    createdAt: 1,
  });
  const req = { headers: { 'accept-language': 'en' }, session: {} } as unknown as HttpRequest;
  const challenge = async () => ((await startFor(ctx, req)) as { challenge: string }).challenge;
  return { ctx, device, req, challenge, settings };
}

/** Sign-in options for `req`, its cookie kept as the browser keeps it (for the next request). */
async function startFor(ctx: PasskeyContext, req: HttpRequest): Promise<unknown> {
  const { options, cookie } = await authenticationOptions(ctx, req);
  expect(cookie).toMatch(
    /^otpless_passkey_login=[\w-]{22}(\.[\w-]{22}){0,3}; Max-Age=120; Path=\/auth\/passkey; HttpOnly; SameSite=Strict$/,
  );
  req.headers.cookie = cookie.split(';')[0];
  return options;
}

async function refusal(promise: Promise<unknown>): Promise<{ code: string; status: number; message: string }> {
  return promise.then(
    () => ({ code: 'none', status: 0, message: '' }),
    (err: { code: string; status: number; message: string }) => err,
  );
}

describe('authenticationVerify', () => {
  it('signs in with a good answer and stores the new counter', async () => {
    const { ctx, device, req, challenge, settings } = await setUp(3);
    const answer = device.assert({
      challenge: await challenge(),
      origin: ORIGIN,
      rpId: 'localhost',
      counter: 4,
      userHandle: 'dXNlci1oYW5kbGU',
    });
    const credential = await authenticationVerify(ctx, req, answer);
    expect(credential.userId).toBe('ana@example.com');
    expect((await settings.credentials.find(device.id))?.counter).toBe(4);
  });

  it('takes a challenge once: the same answer again is PASSKEY_CHALLENGE_EXPIRED', async () => {
    const { ctx, device, req, challenge } = await setUp();
    const answer = device.assert({ challenge: await challenge(), origin: ORIGIN, rpId: 'localhost', counter: 0 });
    await authenticationVerify(ctx, req, answer);
    expect(await refusal(authenticationVerify(ctx, req, answer))).toMatchObject({
      code: 'PASSKEY_CHALLENGE_EXPIRED',
      status: 400,
    });
  });

  it("refuses an answer in another browser than the challenge's, with or without a challenge of its own", async () => {
    const { ctx, device, challenge } = await setUp();
    const answer = device.assert({ challenge: await challenge(), origin: ORIGIN, rpId: 'localhost', counter: 0 });
    const other = { headers: {}, session: {} } as unknown as HttpRequest;
    expect(await refusal(authenticationVerify(ctx, other, answer))).toMatchObject({
      code: 'PASSKEY_CHALLENGE_EXPIRED',
    });
    await startFor(ctx, other);
    expect(await refusal(authenticationVerify(ctx, other, answer))).toMatchObject({
      code: 'PASSKEY_CHALLENGE_EXPIRED',
    });
  });

  it('keeps a challenge per open tab: each answers its own, in any order, and the first takes no other', async () => {
    const { ctx, device, req, challenge } = await setUp();
    // Two tabs of the sign-in page, one browser: the second asks with the first's cookie.
    const first = await challenge();
    const second = await challenge();
    expect(String(req.headers.cookie).split('=')[1]?.split('.')).toHaveLength(2);
    const sign = (c: string) => device.assert({ challenge: c, origin: ORIGIN, rpId: 'localhost', counter: 0 });
    expect((await authenticationVerify(ctx, req, sign(first))).userId).toBe('ana@example.com');
    expect((await authenticationVerify(ctx, req, sign(second))).userId).toBe('ana@example.com');
    expect(await refusal(authenticationVerify(ctx, req, sign(first)))).toMatchObject({
      code: 'PASSKEY_CHALLENGE_EXPIRED',
    });
  });

  it('keeps the newest four challenges of a browser: an older one is PASSKEY_CHALLENGE_EXPIRED', async () => {
    const { ctx, device, req, challenge } = await setUp();
    const given: string[] = [];
    for (let i = 0; i < 5; i++) given.push(await challenge());
    expect(String(req.headers.cookie).split('=')[1]?.split('.')).toHaveLength(4);
    const sign = (c: string) => device.assert({ challenge: c, origin: ORIGIN, rpId: 'localhost', counter: 0 });
    expect(await refusal(authenticationVerify(ctx, req, sign(given[0]!)))).toMatchObject({
      code: 'PASSKEY_CHALLENGE_EXPIRED',
    });
    expect((await authenticationVerify(ctx, req, sign(given[1]!))).userId).toBe('ana@example.com');
  });

  it('refuses an answer naming no challenge as PASSKEY_INVALID, and spends none', async () => {
    const { ctx, device, req, challenge } = await setUp();
    const given = await challenge();
    const good = device.assert({ challenge: given, origin: ORIGIN, rpId: 'localhost', counter: 0 });
    const response = (good as { response: Record<string, unknown> }).response;
    for (const clientDataJSON of [
      undefined,
      7,
      'not base64 json',
      Buffer.from('{"type":"webauthn.get"}').toString('base64url'),
    ]) {
      const blind = { ...good, response: { ...response, clientDataJSON } };
      expect(await refusal(authenticationVerify(ctx, req, blind))).toMatchObject({
        code: 'PASSKEY_INVALID',
        status: 400,
      });
    }
    expect((await authenticationVerify(ctx, req, good)).userId).toBe('ana@example.com');
  });

  it('refuses a wrong origin and a wrong RP ID', async () => {
    const { ctx, device, req, challenge } = await setUp();
    const fromElsewhere = device.assert({
      challenge: await challenge(),
      origin: 'https://evil.example',
      rpId: 'localhost',
      counter: 0,
    });
    expect(await refusal(authenticationVerify(ctx, req, fromElsewhere))).toMatchObject({
      code: 'PASSKEY_WRONG_ORIGIN',
      status: 400,
    });
    const otherRp = device.assert({ challenge: await challenge(), origin: ORIGIN, rpId: 'evil.example', counter: 0 });
    expect(await refusal(authenticationVerify(ctx, req, otherRp))).toMatchObject({ code: 'PASSKEY_WRONG_ORIGIN' });
  });

  it("refuses an unknown passkey and another user handle with PASSKEY_UNKNOWN, in the person's language", async () => {
    const { ctx, req, challenge, device } = await setUp();
    const stranger = new SoftAuthenticator('stranger');
    const unknown = stranger.assert({ challenge: await challenge(), origin: ORIGIN, rpId: 'localhost', counter: 0 });
    expect(await refusal(authenticationVerify(ctx, req, unknown))).toMatchObject({
      code: 'PASSKEY_UNKNOWN',
      status: 401,
      message: 'This passkey is not known here (it may have been removed). Ask for a sign-in link instead.',
    });
    const handle = device.assert({
      challenge: await challenge(),
      origin: ORIGIN,
      rpId: 'localhost',
      counter: 0,
      userHandle: 'b3RoZXI',
    });
    expect(await refusal(authenticationVerify(ctx, req, handle))).toMatchObject({ code: 'PASSKEY_UNKNOWN' });
    const es = { headers: { 'accept-language': 'es' }, session: {} } as unknown as HttpRequest;
    const esChallenge = ((await startFor(ctx, es)) as { challenge: string }).challenge;
    const unknownEs = stranger.assert({ challenge: esChallenge, origin: ORIGIN, rpId: 'localhost', counter: 0 });
    expect((await refusal(authenticationVerify(ctx, es, unknownEs))).message).toContain('llave de acceso');
  });

  it('refuses a signature of another key as PASSKEY_INVALID, and a malformed body', async () => {
    const { ctx, device, req, challenge } = await setUp();
    const forged = new SoftAuthenticator().assert({
      challenge: await challenge(),
      origin: ORIGIN,
      rpId: 'localhost',
      counter: 0,
    });
    const answer = { ...forged, id: device.id, rawId: device.id };
    expect(await refusal(authenticationVerify(ctx, req, answer))).toMatchObject({
      code: 'PASSKEY_INVALID',
      status: 400,
    });
    await challenge();
    expect(await refusal(authenticationVerify(ctx, req, { id: 7 }))).toMatchObject({ code: 'PASSKEY_INVALID' });
  });

  it('refuses a counter that went backwards or stood still, and allows 0 -> 0', async () => {
    const { ctx, device, req, challenge, settings } = await setUp(5);
    for (const counter of [4, 5]) {
      const answer = device.assert({ challenge: await challenge(), origin: ORIGIN, rpId: 'localhost', counter });
      expect(await refusal(authenticationVerify(ctx, req, answer))).toMatchObject({
        code: 'PASSKEY_COUNTER_BACKWARDS',
        status: 401,
      });
    }
    expect((await settings.credentials.find(device.id))?.counter).toBe(5);
    const zero = await setUp(0);
    const answer = zero.device.assert({
      challenge: await zero.challenge(),
      origin: ORIGIN,
      rpId: 'localhost',
      counter: 0,
    });
    expect((await authenticationVerify(zero.ctx, zero.req, answer)).counter).toBe(0);
  });

  it('counterWentBack: the rule alone', () => {
    expect(counterWentBack(0, 0)).toBe(false);
    expect(counterWentBack(0, 1)).toBe(false);
    expect(counterWentBack(3, 4)).toBe(false);
    expect(counterWentBack(3, 3)).toBe(true);
    expect(counterWentBack(3, 2)).toBe(true);
    expect(counterWentBack(3, 0)).toBe(true);
  });
});
