// Each endpoint only on its own host, with its method and media type; errors in the service's body shape.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENDPOINTS } from '../../src/wire/endpoints.js';
import { startEmulator, type Emulator } from '../../src/emulator/index.js';
import { credentialHeaders, expectErrorShape, postJson } from './helpers.js';

let emulator: Emulator;
beforeAll(async () => {
  emulator = await startEmulator({ quiet: true });
});
afterAll(() => emulator.close());

function hostUrl(host: 'auth' | 'userAuth'): string {
  return host === 'auth' ? emulator.authUrl : emulator.userAuthUrl;
}

describe('hosts', () => {
  for (const endpoint of Object.values(ENDPOINTS)) {
    it(`${endpoint.name} answers 404 on the other host`, async () => {
      const other = endpoint.host === 'auth' ? 'userAuth' : 'auth';
      const response = await fetch(`${hostUrl(other)}${endpoint.path}`, {
        method: endpoint.method,
        headers: { 'content-type': 'application/json', ...credentialHeaders() },
        ...(endpoint.method === 'POST' ? { body: '{}' } : {}),
      });
      expect(response.status).toBe(404);
      const body = (await response.json()) as { description: string };
      expectErrorShape(body, 'EMU-404');
      expect(body.description).toContain(endpoint.name);
    });

    it(`${endpoint.name} is served on its own host (not 404/405)`, async () => {
      const response = await fetch(`${hostUrl(endpoint.host)}${endpoint.path}`, {
        method: endpoint.method,
        ...(endpoint.method === 'POST'
          ? {
              body: '',
              headers: {
                'content-type':
                  endpoint.credentials === 'form' ? 'application/x-www-form-urlencoded' : 'application/json',
              },
            }
          : {}),
      });
      // No credentials: 401 proves the endpoint was routed and checked them.
      expect(response.status).toBe(401);
    });
  }

  it('answers 404 with the error body on an unknown path, on both hosts', async () => {
    for (const base of [emulator.authUrl, emulator.userAuthUrl]) {
      const response = await fetch(`${base}/auth/v2/nothing`);
      expect(response.status).toBe(404);
      expect(response.headers.get('content-type')).toMatch(/^application\/json/);
      expectErrorShape(await response.json(), 'EMU-404');
    }
  });

  it('does not serve the dev inbox on the user-auth host', async () => {
    expect((await fetch(`${emulator.userAuthUrl}/`)).status).toBe(404);
    expect((await fetch(`${emulator.userAuthUrl}/__emulator/outbox`)).status).toBe(404);
  });
});

describe('methods', () => {
  it('answers 405 with an Allow header for a wrong method', async () => {
    const get = await fetch(`${emulator.authUrl}${ENDPOINTS.verifyCode.path}`);
    expect(get.status).toBe(405);
    expect(get.headers.get('allow')).toBe('POST');
    expectErrorShape(await get.json(), 'EMU-405');

    const post = await fetch(`${emulator.authUrl}${ENDPOINTS.sendMagicLink.path}`, { method: 'POST' });
    expect(post.status).toBe(405);
    expect(post.headers.get('allow')).toBe('GET');
  });

  it('answers 405 for a POST to the dev inbox', async () => {
    expect((await fetch(`${emulator.authUrl}/`, { method: 'POST' })).status).toBe(405);
  });
});

describe('request bodies', () => {
  const url = () => `${emulator.userAuthUrl}${ENDPOINTS.validateToken.path}`;

  it('answers 415 when a JSON endpoint gets another Content-Type', async () => {
    const response = await fetch(url(), {
      method: 'POST',
      headers: { 'content-type': 'text/plain', ...credentialHeaders() },
      body: '{"token":"x"}',
    });
    expect(response.status).toBe(415);
    expectErrorShape(await response.json(), 'EMU-415');
  });

  it('accepts a charset parameter on application/json', async () => {
    const response = await postJson(
      url(),
      { token: 'unknown' },
      { ...credentialHeaders(), 'content-type': 'application/json; charset=utf-8' },
    );
    expect(response.status).toBe(400);
    expectErrorShape(response.body, '7114');
  });

  it('answers 400 for broken JSON and for JSON that is not an object', async () => {
    for (const text of ['{"token":', '[1,2]', '"token"', 'null']) {
      const response = await postJson(url(), text);
      expect(response.status, text).toBe(400);
      expectErrorShape(response.body, 'EMU-400');
    }
  });

  it('answers 413 for a body over 64 KiB and keeps serving', async () => {
    const response = await postJson(url(), { token: 'x'.repeat(70 * 1024) });
    expect(response.status).toBe(413);
    expectErrorShape(response.body, 'EMU-413');
    const next = await postJson(url(), { token: 'small' });
    expect(next.status).toBe(400);
  });

  it('answers 413 for a large chunked body with no Content-Length', async () => {
    const chunk = new TextEncoder().encode('x'.repeat(16 * 1024));
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new TextEncoder().encode('{"token":"'));
        for (let i = 0; i < 6; i += 1) controller.enqueue(chunk);
        controller.enqueue(new TextEncoder().encode('"}'));
        controller.close();
      },
    });
    const response = await fetch(url(), {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...credentialHeaders() },
      body: stream,
      duplex: 'half',
    } as RequestInit);
    expect(response.status).toBe(413);
  });

  it('answers 415 when userInfo gets JSON instead of a form', async () => {
    const response = await postJson(`${emulator.authUrl}${ENDPOINTS.userInfo.path}`, { token: 'x' });
    expect(response.status).toBe(415);
    expectErrorShape(response.body, 'EMU-415');
  });
});

describe('keep-alive', () => {
  it('does not close connections after an answer', async () => {
    const response = await fetch(`${emulator.authUrl}/__emulator/outbox`);
    await response.text();
    expect(response.headers.get('connection')).not.toBe('close');
  });
});
