// The pages hold under a theme that changes after start-up, a logo URL that tries to write CSP,
// and a code in the URL: every page the package answers, whatever draws it.
import express from 'express';
import supertest from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator, type Emulator } from '../../src/emulator/index.js';
import { requireLowRisk } from '../../src/index.js';
import type { PageTheme } from '../../src/index.js';
import { confirmView, showPage } from '../../src/web/pages.js';
import { CLIENT, clickLink, lastLinkTo, startHarness, type Harness } from '../helpers/harness.js';

let emulator: Emulator;
beforeAll(async () => {
  emulator = await startEmulator({ clients: [CLIENT], quiet: true });
});
afterAll(async () => {
  await emulator.close();
});

let sends = 0;
/** The laptop asks by JSON; the phone opens the link: the approval page. */
async function approvalPage(h: Harness) {
  const email = `hardening-${(sends += 1)}@example.com`;
  const sent = await h.browser().post('/auth/magic-link').set('accept', 'application/json').send({ email });
  expect(sent.status).toBe(200);
  const callback = await clickLink(lastLinkTo(emulator, email));
  return { phone: h.browser(), callback };
}

const INJECTED = '#fff}</style><meta http-equiv="refresh" content="0;url=https://evil.example/">';

describe('the theme', () => {
  it('is copied when checked: changing the app’s object later changes no page', async () => {
    const theme: PageTheme = { name: 'Acme', colors: { accent: '#0b6e4f' } };
    const h = await startHarness({ emulator, strategy: { pages: { theme } } });
    try {
      theme.colors!.accent = INJECTED;
      theme.name = '<script>x</script>';
      const { phone, callback } = await approvalPage(h);
      const page = await phone.get(callback).set('accept', 'text/html');
      expect(page.status).toBe(200);
      expect(page.text).toContain('--accent:#0b6e4f;');
      expect(page.text).toContain('Acme</p>');
      expect(page.text).not.toContain('evil.example');
      expect(page.text).not.toContain('<script>');
    } finally {
      await h.close();
    }
  });

  it('a colour that never went through the check is not written into the page', async () => {
    const app = express();
    app.get('/confirm', (req, res) => {
      // A theme straight into the pages' options, as a caller of the builders could pass it.
      const ctx = { req, res, options: { theme: { colors: { accent: INJECTED, text: 'red;x:y' } } } };
      void showPage(ctx, confirmView(ctx, 'code'));
    });
    const page = await supertest(app).get('/confirm').set('accept', 'text/html');
    expect(page.status).toBe(200);
    expect(page.text).not.toContain('evil.example');
    expect(page.text).not.toContain('red;x:y');
    expect(page.text).toContain('--accent:#2457d6;');
  });

  it.each([
    ['a directive after the host', 'https://cdn.example;form-action/logo.svg'],
    ['a wildcard host', 'https://*.example.com/logo.svg'],
    ['a quote in the host', "https://cdn'.example/logo.svg"],
    ['a comma in the host', 'https://cdn.example,evil/logo.svg'],
    ['a user in the URL', 'https://user@cdn.example/logo.svg'],
  ])('refuses a logo URL with %s, naming the option', async (_name, logoUrl) => {
    await expect(startHarness({ emulator, strategy: { pages: { theme: { logoUrl } } } })).rejects.toThrow(
      /options\.pages\.theme\.logoUrl must be an https URL/,
    );
  });

  it('a plain https host and port still reach img-src', async () => {
    const h = await startHarness({
      emulator,
      strategy: { pages: { theme: { logoUrl: 'https://cdn-1.acme.example:8443/logo.svg' } } },
    });
    try {
      const { phone, callback } = await approvalPage(h);
      const page = await phone.get(callback).set('accept', 'text/html');
      expect(page.headers['content-security-policy']).toContain("img-src 'self' https://cdn-1.acme.example:8443;");
    } finally {
      await h.close();
    }
  });
});

describe('every page’s headers: approval, outcome, confirm, guard refusal', () => {
  let pages: Record<string, supertest.Response>;
  beforeAll(async () => {
    const h = await startHarness({
      emulator,
      strategy: { confirm: true },
      routes: (app) => app.get('/payments', requireLowRisk(), (_req, res) => void res.send('ok')),
    });
    try {
      const email = `hardening-confirm@example.com`;
      const laptop = h.browser();
      await laptop.post('/auth/magic-link').set('accept', 'application/json').send({ email }).expect(200);
      const link = await clickLink(lastLinkTo(emulator, email));
      const confirm = await laptop.get(link).set('accept', 'text/html');
      const { phone, callback } = await approvalPage(h);
      const approval = await phone.get(callback).set('accept', 'text/html');
      const outcome = await phone.post(callback).type('form').set('accept', 'text/html').send({ decision: 'deny' });
      const guard = await h.browser().get('/payments').set('accept', 'text/html');
      pages = { confirm, approval, outcome, guard };
      expect(Object.values(pages).map((p) => [p.status, p.headers['content-type']])).toEqual(
        [200, 200, 200, 401].map((status) => [status, 'text/html; charset=utf-8']),
      );
    } finally {
      await h.close();
    }
  });

  it('X-Content-Type-Options: nosniff', () => {
    for (const [name, page] of Object.entries(pages))
      expect(page.headers['x-content-type-options'], name).toBe('nosniff');
  });

  it("CSP base-uri 'none'", () => {
    for (const [name, page] of Object.entries(pages)) {
      expect(page.headers['content-security-policy'], name).toMatch(/(^|; )base-uri 'none'(;|$)/);
    }
  });

  it('a Referrer-Policy that sends no path or query (the URL may hold the link’s code)', () => {
    for (const [name, page] of Object.entries(pages)) {
      expect(['strict-origin', 'no-referrer'], name).toContain(page.headers['referrer-policy']);
    }
  });
});
