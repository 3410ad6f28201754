// The pages the package shows a person, drawn by the package (in each built-in locale, and in an
// app's Arabic catalogue) or by the app's render function: the security headers either way.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type supertest from 'supertest';
import { startEmulator, type Emulator } from '../../src/emulator/index.js';
import type { PageOptions, PageView } from '../../src/index.js';
import { CLIENT, clickLink, lastLinkTo, startHarness, type Harness } from '../helpers/harness.js';

let emulator: Emulator;
beforeAll(async () => {
  emulator = await startEmulator({ clients: [CLIENT], quiet: true });
});
afterAll(async () => {
  await emulator.close();
});

async function withApp(pages: PageOptions | undefined, run: (h: Harness) => Promise<void>, confirm = false) {
  const h = await startHarness({ emulator, strategy: { ...(pages ? { pages } : {}), confirm } });
  try {
    await run(h);
  } finally {
    await h.close();
  }
}

let sends = 0;
/** The laptop asks; returns its browser, the number, and the callback path the link opens. */
async function ask(h: Harness) {
  const email = `pages-${(sends += 1)}@example.com`;
  const laptop = h.browser();
  const sent = await laptop.post('/auth/magic-link').set('accept', 'application/json').send({ email });
  expect(sent.status).toBe(200);
  return { laptop, match: sent.body.match as string, callback: await clickLink(lastLinkTo(emulator, email)) };
}

function expectSecurityHeaders(res: supertest.Response) {
  expect(res.headers['content-type']).toMatch(/^text\/html/);
  expect(res.headers['cache-control']).toBe('no-store');
  expect(res.headers['content-security-policy']).toMatch(/default-src 'none'/);
  expect(res.headers['content-security-policy']).toMatch(/frame-ancestors 'none'/);
  expect(res.headers['content-security-policy']).toMatch(/form-action 'self'/);
  expect(res.headers['x-frame-options']).toBe('DENY');
}

/** The three pages as a person meets them: approval (phone), an outcome (phone), confirm (same browser). */
async function threePages(h: Harness, language?: string) {
  const lang = (r: supertest.Test) => (language ? r.set('accept-language', language) : r);
  const { callback } = await ask(h);
  const phone = h.browser();
  const approval = await lang(phone.get(callback).set('accept', 'text/html'));
  const outcome = await lang(phone.post(callback).type('form').set('accept', 'text/html').send({ decision: 'deny' }));
  return { approval, outcome };
}

const LOCALES: Array<[string, string, string, string]> = [
  // Accept-Language, <html lang>, the approval heading, the denial outcome's heading
  ['hi', 'hi', 'अपने कंप्यूटर पर साइन इन की मंज़ूरी दें?', 'साइन इन रद्द कर दिया गया'],
  ['id-ID,id;q=0.9', 'id', 'Setujui proses masuk di komputer Anda?', 'Proses masuk dibatalkan'],
  ['es-MX,es;q=0.9,en;q=0.5', 'es', '¿Aprobar el inicio de sesión en tu computadora?', 'Inicio de sesión cancelado'],
  ['pt-BR,pt;q=0.9', 'pt-BR', 'Aprovar o login no seu computador?', 'Login cancelado'],
  ['fr-FR,fr;q=0.9', 'en', 'Approve sign-in on your computer?', 'Sign-in cancelled'],
];

describe('default pages in each built-in locale', () => {
  it.each(LOCALES)('Accept-Language %s', async (header, lang, approvalTitle, deniedTitle) => {
    await withApp(undefined, async (h) => {
      const { approval, outcome } = await threePages(h, header);
      expect(approval.status).toBe(200);
      expect(approval.text).toContain(`<html lang="${lang}" dir="ltr">`);
      expect(approval.text).toContain(`<title>${approvalTitle}</title>`);
      expectSecurityHeaders(approval);
      expect(outcome.status).toBe(200);
      expect(outcome.text).toContain(`<title>${deniedTitle}</title>`);
      expectSecurityHeaders(outcome);
    });
  });

  it('the app’s choice of locale wins over Accept-Language, and one message can be overridden', async () => {
    await withApp({ locale: () => 'es', messages: { es: { 'approval.approve': 'Sí, fui yo' } } }, async (h) => {
      const { approval } = await threePages(h, 'hi');
      expect(approval.text).toContain('<html lang="es" dir="ltr">');
      expect(approval.text).toContain('>Sí, fui yo</button>');
      expect(approval.text).toContain('No fui yo');
    });
  });

  it('an Arabic catalogue from the app is drawn right to left', async () => {
    const ar = {
      'approval.title': 'هل توافق على تسجيل الدخول على جهاز الكمبيوتر؟',
      'approval.approve': 'موافقة',
      'approval.deny': 'لم أكن أنا',
      'outcome.denied.title': 'تم إلغاء تسجيل الدخول',
    };
    await withApp({ messages: { ar } }, async (h) => {
      const { approval, outcome } = await threePages(h, 'ar-EG,ar;q=0.9,en;q=0.5');
      expect(approval.text).toContain('<html lang="ar" dir="rtl">');
      expect(approval.text).toContain(`<title>${ar['approval.title']}</title>`);
      expect(approval.text).toContain('>موافقة</button>');
      expectSecurityHeaders(approval);
      expect(outcome.text).toContain('<html lang="ar" dir="rtl">');
      // A sentence the catalogue left out falls back to English, never to a key.
      expect(outcome.text).toContain('Nobody was signed in.');
    });
  });

  it('the confirm page in Hindi', async () => {
    await withApp(
      undefined,
      async (h) => {
        const { laptop, callback } = await ask(h);
        const page = await laptop.get(callback).set('accept', 'text/html').set('accept-language', 'hi');
        expect(page.status).toBe(200);
        expect(page.text).toContain('<title>साइन इन की पुष्टि करें</title>');
        expect(page.text).toContain('>साइन इन करें</button>');
        expectSecurityHeaders(page);
      },
      true,
    );
  });
});

describe("the app's render function", () => {
  it('draws every page from its view model, with the package’s status and security headers', async () => {
    const seen: PageView[] = [];
    const render = (view: PageView) => {
      seen.push(view);
      const form =
        view.page === 'approval'
          ? `<form method="post"><input name="${view.approve.field}"><button>${view.approve.button}</button></form>`
          : view.page === 'confirm'
            ? `<form method="post"><input type="hidden" name="code" value="${view.form.hidden.code}"><button>${view.form.button}</button></form>`
            : '';
      return `<!doctype html><html lang="${view.locale}" dir="${view.dir}"><title>${view.title}</title><h1 class="app">${view.title}</h1>${form}</html>`;
    };
    await withApp(
      { render },
      async (h) => {
        const { laptop, callback } = await ask(h);
        const confirm = await laptop.get(callback).set('accept', 'text/html').set('accept-language', 'pt-BR');
        expect(confirm.text).toContain('<h1 class="app">Confirmar login</h1>');
        expectSecurityHeaders(confirm);

        const other = await ask(h);
        const phone = h.browser();
        const approval = await phone.get(other.callback).set('accept', 'text/html');
        expect(approval.status).toBe(200);
        expect(approval.text).toContain('<h1 class="app">Approve sign-in on your computer?</h1>');
        expectSecurityHeaders(approval);

        // A POST without the number: the app's page again, 400, with the error to show; the flow still waits.
        const empty = await phone.post(other.callback).type('form').set('accept', 'text/html').send({ match: '' });
        expect(empty.status).toBe(400);
        expect(empty.text).toContain('<h1 class="app">');
        expect((await other.laptop.get('/auth/status')).body.status).toBe('pending');

        const approved = await phone
          .post(other.callback)
          .type('form')
          .set('accept', 'text/html')
          .send({ match: other.match });
        expect(approved.status).toBe(200);
        expect(approved.text).toContain('<h1 class="app">You are signed in on your computer</h1>');
        expectSecurityHeaders(approved);
      },
      true,
    );
    expect(seen.map((v) => v.page)).toEqual(['confirm', 'approval', 'approval', 'outcome']);
    const approval = seen[1] as Extract<PageView, { page: 'approval' }>;
    expect(approval).toMatchObject({
      status: 200,
      locale: 'en',
      dir: 'ltr',
      approve: { field: 'match', method: 'post', action: '' },
      deny: { hidden: { decision: 'deny' } },
    });
    expect(seen[2]).toMatchObject({ status: 400, error: expect.stringContaining('two-digit number') });
    expect(seen[3]).toMatchObject({ page: 'outcome', outcome: 'approved', status: 200 });
  });

  it('a render function that returns undefined keeps the package’s page', async () => {
    await withApp({ render: () => undefined }, async (h) => {
      const { approval } = await threePages(h);
      expect(approval.text).toContain('<title>Approve sign-in on your computer?</title>');
      expectSecurityHeaders(approval);
    });
  });
});

describe('theme', () => {
  it('draws the default pages in the app’s name, logo and colours, and lets the logo through the CSP', async () => {
    const theme = { name: 'Acme', logoUrl: 'https://cdn.acme.example/logo.svg', colors: { accent: '#ffcc00' } };
    await withApp({ theme }, async (h) => {
      const { approval } = await threePages(h);
      expect(approval.text).toContain('<img src="https://cdn.acme.example/logo.svg" alt="">Acme</p>');
      expect(approval.text).toContain('--accent:#ffcc00;--on-accent:#111');
      expect(approval.headers['content-security-policy']).toContain("img-src 'self' https://cdn.acme.example;");
      expectSecurityHeaders(approval);
    });
  });

  it('refuses a colour that is not hex, naming the option', async () => {
    await expect(
      startHarness({ emulator, strategy: { pages: { theme: { colors: { accent: 'red;}body{x' } } } } }),
    ).rejects.toThrow(/options\.pages\.theme\.colors\.accent must be a hex colour/);
  });

  it('refuses a misspelt message key, naming it', async () => {
    await expect(
      startHarness({ emulator, strategy: { pages: { messages: { es: { 'approval.aprove': 'x' } as never } } } }),
    ).rejects.toThrow(/pages\.messages\.es\['approval\.aprove'\]/);
  });
});

describe('the catalogue', () => {
  it('every built-in locale has every key, and English is the callback refusals’ own words', async () => {
    const { BUILT_IN_MESSAGES } = await import('../../src/web/messages/index.js');
    const { CALLBACK_FAILURES } = await import('../../src/login/failures.js');
    const keys = Object.keys(BUILT_IN_MESSAGES.en!).sort();
    expect(Object.keys(BUILT_IN_MESSAGES).sort()).toEqual(['en', 'es', 'hi', 'id', 'pt-BR']);
    for (const [locale, catalogue] of Object.entries(BUILT_IN_MESSAGES)) {
      expect(Object.keys(catalogue).sort(), locale).toEqual(keys);
      // Placeholders survive translation: the same {names} in every language.
      for (const key of keys) {
        const names = (text: string) => (text.match(/\{\w+\}/g) ?? []).sort();
        expect(names((catalogue as Record<string, string>)[key]!), `${locale} ${key}`).toEqual(
          names((BUILT_IN_MESSAGES.en as Record<string, string>)[key]!),
        );
      }
    }
    for (const [code, { message }] of Object.entries(CALLBACK_FAILURES)) {
      expect((BUILT_IN_MESSAGES.en as Record<string, string>)[`failure.${code}`]).toBe(message);
    }
  });

  it('a refusal of the callback reaches the app in the person’s language', async () => {
    const h = await startHarness({
      emulator,
      routes: (app) =>
        app.get('/custom', (req, res, next) =>
          h.passport.authenticate('magic-link', (err: unknown, _user: unknown, info: unknown, status: number) =>
            err ? next(err) : res.status(status).json({ error: info }),
          )(req, res, next),
        ),
    });
    try {
      const res = await h.browser().get('/custom?code=whatever').set('accept-language', 'es');
      expect(res.status).toBe(403);
      expect(res.body.error).toMatchObject({ code: 'WRONG_BROWSER' });
      expect(res.body.error.message).toMatch(/^Este enlace de inicio de sesión no se puede usar aquí/);
    } finally {
      await h.close();
    }
  });
});
