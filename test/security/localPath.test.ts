import { describe, expect, it } from 'vitest';
import { requireLowRisk } from '../../src/index.js';
import { isSafeLocalPath } from '../../src/web/origin.js';
import { loginVia } from '../helpers/harness.js';
import { useSharedEmulator } from '../helpers/sharedEmulator.js';

// Finding 10 of issue #12: dot segments resolve to `//host`, a protocol-relative URL. A path that
// only becomes `//evil.test` once resolved must be refused like `//evil.test` itself.
const { harness } = useSharedEmulator();

/** Each resolves (in a URL parser, a browser, or a later redirect of the resolved path) off-site. */
const DOT_PAYLOADS = [
  '/.//evil.test',
  '/./\\evil.test',
  '/%2e//evil.test',
  '/%2E//evil.test',
  '/..//evil.test',
  '/%2e%2e//evil.test',
  '/.%2e//evil.test',
  '/a/..//evil.test',
  '/a/../..//evil.test',
  '/.//evil.test?x=1',
];

describe('isSafeLocalPath() and dot segments', () => {
  it.each(DOT_PAYLOADS)('refuses %j', (payload) => {
    expect(isSafeLocalPath(payload)).toBe(false);
  });

  it('each payload does resolve to another host once its path is used as a URL', () => {
    // Why they matter: the resolved path starts with `//`, which a redirect sends off-site.
    for (const payload of DOT_PAYLOADS.filter((p) => !p.includes('\\'))) {
      const resolved = new URL(payload, 'https://app.example').pathname;
      expect(resolved.startsWith('//'), payload).toBe(true);
      expect(new URL(resolved, 'https://app.example').host, payload).toBe('evil.test');
    }
  });

  it.each([
    '/',
    '/account',
    '/account/settings?tab=2#top',
    '/a.b/c..d/.well-known',
    '/files/%2e%2etxt',
    '/q?next=/..//x',
  ])('still accepts the plain path %j', (path) => {
    expect(isSafeLocalPath(path)).toBe(true);
  });

  it('refuses them as a guard loginUrl when the route is set up', () => {
    for (const payload of DOT_PAYLOADS)
      expect(() => requireLowRisk({ loginUrl: payload })).toThrow(/options\.loginUrl/);
  });

  it.each(DOT_PAYLOADS)('drops the returnTo %j after a real login (goes to the default instead)', async (payload) => {
    const h = await harness({
      authenticate: { successRedirect: undefined, successReturnToOrRedirect: '/me' },
      routes: (app) => {
        app.get('/protected', (req, res) => {
          (req.session as unknown as Record<string, unknown>).returnTo = payload;
          res.status(401).end();
        });
      },
    });
    const browser = h.browser();
    await browser.get('/protected');
    const res = await loginVia(h, browser, { email: 'dots@example.com' });
    expect(res.status).toBe(302);
    expect(res.headers.location).toBe('/me');
  });
});
