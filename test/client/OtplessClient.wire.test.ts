import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OtplessClient } from '../../src/client/index.js';
import { type CaptureServer, startCaptureServer } from './helpers/captureServer.js';
import {
  secureInfoOk,
  sendMagicLinkOk,
  sessionDetailsOk,
  userInfoOk,
  validateTokenOk,
  verifyCodeOk,
} from './helpers/fixtures.js';

// Two servers, so a call sent to the wrong host shows up on the wrong one.
let auth: CaptureServer;
let userAuth: CaptureServer;
let client: OtplessClient;
const clientSecret = 'se/cr+et=&x';

beforeAll(async () => {
  auth = await startCaptureServer();
  userAuth = await startCaptureServer();
  client = new OtplessClient({ clientId: 'my-client-id', clientSecret, authUrl: auth.url, userAuthUrl: userAuth.url });
});
afterAll(async () => {
  await client.close();
  await auth.close();
  await userAuth.close();
});

function last(server: CaptureServer) {
  const req = server.requests.at(-1);
  if (!req) throw new Error('no request captured');
  return req;
}

function expectHeaderCredentials(req: ReturnType<typeof last>) {
  expect(req.headers['clientid']).toBe('my-client-id');
  expect(req.headers['clientsecret']).toBe(clientSecret);
  // Sent with the spec's spelling.
  expect(req.rawHeaderNames).toContain('clientId');
  expect(req.rawHeaderNames).toContain('clientSecret');
  expect(req.headers['content-type']).toBe('application/json');
  expect(req.headers.accept).toBe('application/json');
  expect(req.query).toEqual({});
}

describe('each call sends exactly what spec section 4 says', () => {
  it('sendMagicLink: GET auth /auth/v1/authorize with credentials and fields as query parameters', async () => {
    const result = await client.sendMagicLink({
      email: 'ada+test@example.com',
      mobileNumber: '+919876543210',
      redirectUri: 'https://example.com/cb?next=/home&x=1',
      expiry: 600,
    });
    expect(result).toEqual(sendMagicLinkOk);
    const req = last(auth);
    expect(req.method).toBe('GET');
    expect(req.path).toBe('/auth/v1/authorize');
    expect(req.query).toEqual({
      client_id: 'my-client-id',
      client_secret: clientSecret,
      redirect_uri: 'https://example.com/cb?next=/home&x=1',
      mobile_number: '919876543210',
      email: 'ada+test@example.com',
      expiry: '600',
    });
    expect(req.body).toBe('');
    expect(req.headers.accept).toBe('application/json');
    expect(req.headers['clientsecret']).toBeUndefined();
    expect(userAuth.requests).toHaveLength(0);
  });

  it('sendMagicLink: only the fields given', async () => {
    await client.sendMagicLink({ email: 'ada@example.com', redirectUri: 'https://example.com/cb' });
    // No channel unless asked: the service picks its default (WhatsApp).
    expect(Object.keys(last(auth).query).sort()).toEqual(['client_id', 'client_secret', 'email', 'redirect_uri']);
  });

  it.each(['WHATSAPP', 'SMS'] as const)(
    'sendMagicLink: channel %s is sent as the channel query parameter',
    async (channel) => {
      await client.sendMagicLink({ mobileNumber: '919876543210', redirectUri: 'https://example.com/cb', channel });
      expect(last(auth).query).toMatchObject({ channel, mobile_number: '919876543210' });
    },
  );

  it('verifyCode: POST auth /auth/v1/verify/code, JSON {code}, credentials in headers', async () => {
    expect(await client.verifyCode('code "1"/+')).toEqual(verifyCodeOk);
    const req = last(auth);
    expect(req.method).toBe('POST');
    expect(req.path).toBe('/auth/v1/verify/code');
    expect(JSON.parse(req.body)).toEqual({ code: 'code "1"/+' });
    expectHeaderCredentials(req);
  });

  it('getUserInfo: POST auth /auth/userInfo, form body token, client_id, client_secret', async () => {
    expect(await client.getUserInfo('tok en/+&=')).toEqual(userInfoOk);
    const req = last(auth);
    expect(req.method).toBe('POST');
    expect(req.path).toBe('/auth/userInfo');
    expect(req.headers['content-type']).toBe('application/x-www-form-urlencoded');
    expect(req.headers.accept).toBe('application/json');
    expect(Object.fromEntries(new URLSearchParams(req.body))).toEqual({
      token: 'tok en/+&=',
      client_id: 'my-client-id',
      client_secret: clientSecret,
    });
    expect(req.headers['clientsecret']).toBeUndefined();
    expect(req.query).toEqual({});
  });

  it('validateToken: POST userAuth /auth/v1/validate/token, JSON {token}', async () => {
    expect(await client.validateToken('tok-1')).toEqual(validateTokenOk);
    const req = last(userAuth);
    expect(req.method).toBe('POST');
    expect(req.path).toBe('/auth/v1/validate/token');
    expect(JSON.parse(req.body)).toEqual({ token: 'tok-1' });
    expectHeaderCredentials(req);
  });

  it('getSecureInfo: POST userAuth /auth/v1/secure-info, JSON {token}', async () => {
    expect(await client.getSecureInfo('tok-2')).toEqual(secureInfoOk);
    const req = last(userAuth);
    expect(req.path).toBe('/auth/v1/secure-info');
    expect(JSON.parse(req.body)).toEqual({ token: 'tok-2' });
    expectHeaderCredentials(req);
  });

  it('getSessionDetails: POST userAuth /v1/sessions/get-session-details, JSON {sessionToken}', async () => {
    expect(await client.getSessionDetails('sess-1')).toEqual(sessionDetailsOk);
    const req = last(userAuth);
    expect(req.path).toBe('/v1/sessions/get-session-details');
    expect(JSON.parse(req.body)).toEqual({ sessionToken: 'sess-1' });
    expectHeaderCredentials(req);
  });

  it('every call went to its own host', () => {
    expect(auth.requests.map((r) => r.path).every((p) => p.startsWith('/auth/'))).toBe(true);
    expect(userAuth.requests.map((r) => r.path).sort()).toEqual([
      '/auth/v1/secure-info',
      '/auth/v1/validate/token',
      '/v1/sessions/get-session-details',
    ]);
  });

  it('keeps unknown extra fields of a response', async () => {
    auth.reply(() => ({ body: { ...userInfoOk, brandNew: { nested: [1] } } }));
    const info = await client.getUserInfo('tok');
    expect(info.brandNew).toEqual({ nested: [1] });
    auth.reply(() => ({}));
  });

  it('a base URL with a path prefix is kept in front of every path', async () => {
    const prefixed = new OtplessClient({
      clientId: 'my-client-id',
      clientSecret,
      authUrl: `${auth.url}/proxy/otpless/`,
      userAuthUrl: userAuth.url,
    });
    auth.reply(() => ({ body: verifyCodeOk }));
    await prefixed.verifyCode('c');
    expect(last(auth).path).toBe('/proxy/otpless/auth/v1/verify/code');
    auth.reply(() => ({}));
    await prefixed.close();
  });
});
