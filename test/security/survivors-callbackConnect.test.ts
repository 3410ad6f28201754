// Mutation survivors of the callback's input on plain Connect (docs/testing.md): Connect parses
// no query, so the strategy reads `code` and `flow` from the URL itself, and must refuse a
// repeated parameter there as Express's parsed query does.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator } from '../../src/emulator/index.js';
import type { Emulator } from '../../src/emulator/index.js';
import { Browser } from '../examples/helpers/browser.js';
import { linkTo } from '../examples/helpers/inbox.js';
import { CLIENT, HOSTS } from '../hosts/hosts.js';
import type { RunningHost } from '../hosts/hosts.js';

const connectHost = HOSTS.find((host) => host.id === 'connect')!;

let emulator: Emulator;
let app: RunningHost;
beforeAll(async () => {
  emulator = await startEmulator({ clients: [CLIENT], quiet: true });
  app = await connectHost.start(emulator, { crossDevice: 'refuse' });
});
afterEach(() => emulator.clearFaults());
afterAll(async () => {
  await app?.close();
  await emulator?.close();
});

/** A browser that asked for a link on the Connect app, and the link's `code` and `flow`. */
async function delivered(to: string) {
  const browser = new Browser(app.url);
  expect((await browser.postJson('/auth/magic-link', { email: to })).status).toBe(200);
  const redirect = await browser.get(linkTo(emulator, to));
  const back = new URL(redirect.location!).searchParams;
  return { browser, code: back.get('code')!, flow: back.get('flow')! };
}

const me = async (browser: Browser) => (await browser.get('/me', { accept: 'application/json' })).json();

describe('the callback on plain Connect reads the query from the URL', () => {
  it('a repeated code or flow is refused (400) before the service is asked; the link then still signs in', async () => {
    const { browser, code, flow } = await delivered('connect-twice@example.com');
    emulator.fault({ path: '/auth/v1/verify/code', status: 500, times: 1 });
    for (const query of [`code=${code}&code=${code}&flow=${flow}`, `code=${code}&flow=${flow}&flow=${flow}`]) {
      const res = await browser.get(`/auth/callback?${query}`);
      expect(res.status).toBe(400);
      expect(await me(browser)).toEqual({ user: null });
    }
    // The fault is still armed: neither reached the service.
    expect((await browser.get(`/auth/callback?code=${code}&flow=${flow}`)).status).toBe(502);
  });

  it('other parameters, repeated or not, change nothing: the link signs in', async () => {
    const { browser, code, flow } = await delivered('connect-utm@example.com');
    const res = await browser.get(`/auth/callback?utm=a&utm=b&code=${code}&flow=${flow}&x=`);
    expect(res.status).toBe(303);
    expect(res.location).toMatch(/\/me$/);
    expect(await me(browser)).toEqual({ user: { id: 'connect-utm@example.com' } });
  });
});
