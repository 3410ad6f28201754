// Credentials where spec section 5 puts them: query, form fields, headers; 401 with 7012/7002 and the label "Access blocked".
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator, type Emulator } from '../../src/emulator/index.js';
import {
  CLIENT,
  click,
  codeOf,
  expectErrorShape,
  lastEntry,
  logIn,
  postForm,
  postJson,
  sendLink,
  verify,
} from './helpers.js';

const OTHER = { clientId: 'other-client', clientSecret: 'other-secret' };
let emulator: Emulator;
let token: string;
beforeAll(async () => {
  emulator = await startEmulator({ quiet: true, clients: [CLIENT, OTHER] });
  ({ token } = await logIn(emulator));
});
afterAll(() => emulator.close());

describe('query credentials (send magic link)', () => {
  it('answers 7012 when client_id or client_secret is missing or empty', async () => {
    for (const params of [{ client_id: '' }, { client_secret: '' }, { client_id: '', client_secret: '' }]) {
      const { status, body } = await sendLink(emulator, { email: 'a@example.com', ...params });
      expect(status).toBe(401);
      expectErrorShape(body, '7012');
      expect(body).toEqual({
        message: 'Access blocked',
        errorCode: '7012',
        description: 'Authorization error: Empty credentials',
      });
    }
  });

  it("answers 7002 for a wrong secret, an unknown id, or another client's secret", async () => {
    for (const params of [
      { client_secret: 'wrong' },
      { client_id: 'nobody' },
      { client_id: CLIENT.clientId, client_secret: OTHER.clientSecret },
    ]) {
      const { status, body } = await sendLink(emulator, { email: 'a@example.com', ...params });
      expect(status).toBe(401);
      expectErrorShape(body, '7002');
      expect(body).toEqual({
        message: 'Access blocked',
        errorCode: '7002',
        description: 'Authorization error: Invalid credentials',
      });
    }
  });

  it('accepts every configured client', async () => {
    const { status } = await sendLink(emulator, {
      email: 'a@example.com',
      ...{ client_id: OTHER.clientId, client_secret: OTHER.clientSecret },
    });
    expect(status).toBe(200);
  });

  it('checks credentials before validating the rest of the query', async () => {
    const { status, body } = await sendLink(emulator, { client_secret: 'wrong', redirect_uri: 'not a url' });
    expect(status).toBe(401);
    expectErrorShape(body, '7002');
  });
});

describe('header credentials', () => {
  const paths = () => [
    `${emulator.authUrl}/auth/v1/verify/code`,
    `${emulator.userAuthUrl}/auth/v1/validate/token`,
    `${emulator.userAuthUrl}/auth/v1/secure-info`,
    `${emulator.userAuthUrl}/v1/sessions/get-session-details`,
  ];

  it('answers 7012 when a header is missing or empty', async () => {
    for (const url of paths()) {
      const variants: Array<Record<string, string>> = [
        {},
        { clientId: CLIENT.clientId },
        { clientSecret: CLIENT.clientSecret },
        { clientId: '', clientSecret: '' },
      ];
      for (const headers of variants) {
        const { status, body } = await postJson(url, { token }, headers);
        expect(status, url).toBe(401);
        expectErrorShape(body, '7012');
      }
    }
  });

  it('answers 7002 when a header is wrong', async () => {
    for (const url of paths()) {
      const { status, body } = await postJson(url, { token }, { clientId: CLIENT.clientId, clientSecret: 'wrong' });
      expect(status, url).toBe(401);
      expectErrorShape(body, '7002');
    }
  });

  it('ignores credentials sent in the query or body of a header endpoint', async () => {
    const url = `${emulator.userAuthUrl}/auth/v1/validate/token?clientId=${CLIENT.clientId}&clientSecret=${CLIENT.clientSecret}`;
    const { status } = await postJson(url, { token, clientId: CLIENT.clientId, clientSecret: CLIENT.clientSecret }, {});
    expect(status).toBe(401);
  });
});

describe('form credentials (userInfo)', () => {
  const url = () => `${emulator.authUrl}/auth/userInfo`;

  it('answers 401 7012 for missing and 7002 for wrong secrets, like every other endpoint', async () => {
    const variants: Array<[Record<string, string>, string]> = [
      [{ token }, '7012'],
      [{ token, client_id: CLIENT.clientId }, '7012'],
      [{ token, client_id: CLIENT.clientId, client_secret: 'wrong' }, '7002'],
      [{ token, client_id: 'nobody', client_secret: CLIENT.clientSecret }, '7002'],
    ];
    for (const [fields, errorCode] of variants) {
      const { status, body } = await postForm(url(), fields);
      expect(status).toBe(401);
      expectErrorShape(body, errorCode);
    }
  });

  it('does not take the credentials from headers', async () => {
    const response = await fetch(url(), {
      method: 'POST',
      headers: { clientId: CLIENT.clientId, clientSecret: CLIENT.clientSecret },
      body: new URLSearchParams({ token }),
    });
    expect(response.status).toBe(401);
  });

  it('answers 200 with the right form fields', async () => {
    const { status } = await postForm(url(), { token, client_id: CLIENT.clientId, client_secret: CLIENT.clientSecret });
    expect(status).toBe(200);
  });
});

describe('client isolation', () => {
  it("treats another client's token and code as unknown (7114)", async () => {
    const other = { clientId: OTHER.clientId, clientSecret: OTHER.clientSecret };
    const validated = await postJson(`${emulator.userAuthUrl}/auth/v1/validate/token`, { token }, other);
    expect(validated.status).toBe(400);
    expectErrorShape(validated.body, '7114');
    const form = await postForm(`${emulator.authUrl}/auth/userInfo`, {
      token,
      client_id: OTHER.clientId,
      client_secret: OTHER.clientSecret,
    });
    expect(form.status).toBe(400);
    expectErrorShape(form.body, '7114');
  });

  it("refuses another client's code with 7114 and leaves it usable by its own client", async () => {
    await sendLink(emulator, { email: 'iso@example.com' });
    const code = codeOf(await click(lastEntry(emulator).link));
    const other = await verify(emulator, code, { clientId: OTHER.clientId, clientSecret: OTHER.clientSecret });
    expect(other.status).toBe(400);
    expectErrorShape(other.body, '7114');
    expect((await verify(emulator, code)).status).toBe(200);
  });
});
