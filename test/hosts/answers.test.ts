import { describe, expect, it } from 'vitest';
import { Browser } from '../examples/helpers/browser.js';
import type { Page } from '../examples/helpers/browser.js';
import { HOSTS } from './hosts.js';
import { useHostSuite } from './suite.js';

// Every answer the package writes says `X-Content-Type-Options: nosniff` (JSON too, not only
// pages), and the mount's routes take one body limit on every host: 16 KiB, and refuse a body
// that is not JSON the same way on every host.

const JSON_ACCEPT = { accept: 'application/json' };

const suite = useHostSuite();

function expectNoSniff(page: Page, what: string): void {
  expect(page.headers.get('x-content-type-options'), what).toBe('nosniff');
}

for (const host of HOSTS) {
  describe(`${host.label} with ${host.session}: answers`, () => {
    it('say nosniff, JSON and redirects included', async () => {
      const running = await suite.start(host, {});
      const browser = new Browser(running.url);
      const refused = await browser.postJson('/auth/magic-link', { email: 'not an address' });
      expect(refused.status).toBe(400);
      expectNoSniff(refused, 'a refused send (JSON)');
      const sent = await browser.postJson('/auth/magic-link', { email: `answers-${host.id}@example.com` });
      expect(sent.status).toBe(200);
      expectNoSniff(sent, 'a send (JSON)');
      const status = await browser.get('/auth/status', JSON_ACCEPT);
      expect(status.status).toBe(200);
      expectNoSniff(status, 'the status (JSON)');
      const callback = await browser.postJson('/auth/callback', { token: 'not-a-token' });
      expect(callback.status).toBe(401);
      expectNoSniff(callback, 'a refused callback (JSON)');
      const guard = await browser.fresh().get('/payments', JSON_ACCEPT);
      expect(guard.status).toBe(401);
      expectNoSniff(guard, 'a guard refusal (JSON)');
      const form = await browser.postForm('/auth/magic-link', { email: `answers-form-${host.id}@example.com` });
      expect(form.status).toBe(303);
      expectNoSniff(form, 'a redirect');
      // A redirect has no body, and says so on every host: no type, a length of 0.
      expect(form.headers.get('content-type'), 'a redirect').toBeNull();
      expect(form.headers.get('content-length'), 'a redirect').toBe('0');
      const page = await browser.get('/auth/sign-in');
      expect(page.status).toBe(200);
      expectNoSniff(page, 'a page');
    });

    it('refuse a send body over 16 KiB with 413, JSON or form', async () => {
      const running = await suite.start(host, {});
      const browser = new Browser(running.url);
      const padding = 'x'.repeat(20 * 1024);
      const json = await browser.postJson('/auth/magic-link', { email: `big-${host.id}@example.com`, padding });
      expect(json.status).toBe(413);
      expect(json.json()).toMatchObject({ error: { code: 'BODY_TOO_LARGE' } });
      const form = await browser.postForm(
        '/auth/magic-link',
        { email: `big-form-${host.id}@example.com`, padding },
        JSON_ACCEPT,
      );
      expect(form.status).toBe(413);
      // Nothing was sent.
      expect(
        suite
          .emulator()
          .outbox()
          .some((e) => e.to.startsWith(`big-`) && e.to.includes(host.id)),
      ).toBe(false);
      // A sign-in body within the limit still goes through.
      const small = await browser.postJson('/auth/magic-link', { email: `small-${host.id}@example.com` });
      expect(small.status).toBe(200);
    });

    it('answer a method a route does not serve with 405 and Allow', async () => {
      const running = await suite.start(host, {});
      for (const [method, path, allow] of [
        ['PUT', '/auth/magic-link', 'POST'],
        ['DELETE', '/auth/sign-in', 'GET, HEAD'],
        ['PATCH', '/auth/callback', 'GET, HEAD, POST'],
      ] as const) {
        const res = await fetch(new URL(path, running.url), { method, redirect: 'manual' });
        expect(res.status, `${method} ${path}`).toBe(405);
        expect(res.headers.get('allow'), `${method} ${path}`).toBe(allow);
        await res.text();
      }
    });

    it('refuse a send body that is not JSON with 400 INVALID_INPUT, in the mount’s own JSON', async () => {
      const running = await suite.start(host, {});
      const browser = new Browser(running.url);
      const broken = await browser.postText('/auth/magic-link', '{"email": "broken-', 'application/json', JSON_ACCEPT);
      expect(broken.status, broken.text).toBe(400);
      expect(broken.headers.get('content-type')).toMatch(/^application\/json/);
      expect(broken.json()).toMatchObject({ error: { code: 'INVALID_INPUT' } });
      // Nothing was sent, and the next well-formed send goes through.
      expect(
        suite
          .emulator()
          .outbox()
          .some((e) => e.to.startsWith('broken-')),
      ).toBe(false);
      const fixed = await browser.postJson('/auth/magic-link', { email: `fixed-${host.id}@example.com` });
      expect(fixed.status, fixed.text).toBe(200);
    });
  });
}
