// The package's sign-in, waiting and error pages, drawn from their builders in a real Express
// app: what a person sees (status, the number, the error next to its field), escaping, the one
// script the waiting page may run (and no other page), and every built-in locale.
import { createHash } from 'node:crypto';
import supertest from 'supertest';
import { describe, expect, it } from 'vitest';
import { defaultPageInputs, pageApp } from '../helpers/pageApp.js';
import type { PageInputs } from '../helpers/pageApp.js';
import type { PageView } from '../../src/index.js';

const NOW = Date.UTC(2025, 0, 1, 12, 0, 0);

const inputs = (): PageInputs => defaultPageInputs(NOW);

async function get(page: string, setup: (i: PageInputs) => void = () => {}, language?: string) {
  const i = inputs();
  setup(i);
  const req = supertest(pageApp(i)).get(`/${page}`).set('accept', 'text/html');
  return language ? req.set('accept-language', language) : req;
}

/** The page's inline scripts and the CSP's script sources. */
function scripts(res: supertest.Response) {
  const inline = [...res.text.matchAll(/<script>([\s\S]*?)<\/script>/g)].map((m) => m[1]!);
  const csp = String(res.headers['content-security-policy']);
  return { inline, csp, scriptSrc: /script-src ([^;]+)/.exec(csp)?.[1] };
}

describe('the sign-in page', () => {
  it('offers e-mail and mobile, posts to the send route with its hidden fields, runs no script', async () => {
    const res = await get('sign-in');
    expect(res.status).toBe(200);
    expect(res.text).toContain('<title>Sign in</title>');
    expect(res.text).toContain('<form method="post" action="/auth/magic-link">');
    expect(res.text).toContain('<input type="hidden" name="returnTo" value="/account">');
    expect(res.text).toMatch(/<label for="email">E-mail address<\/label><input id="email" name="email" type="email"/);
    expect(res.text).toMatch(/<label for="mobile">Mobile number<\/label>.*<input id="mobile" name="mobile" type="tel"/);
    expect(res.text).toContain('>Send me a sign-in link</button>');
    expect(scripts(res)).toMatchObject({ inline: [], scriptSrc: undefined });
  });

  it('shows the refusal next to its field, keeps what was typed (escaped) and the chosen channel', async () => {
    const res = await get('sign-in', (i) => {
      i.signIn = {
        action: '/auth/magic-link',
        contacts: ['mobile'],
        names: { mobile: 'phone', channel: 'via' },
        channels: ['WHATSAPP', 'SMS'],
        values: { mobile: '+1 "415"<b>', channel: 'SMS' },
        error: { message: 'Enter a valid mobile number <now>.', field: 'mobile' },
      };
    });
    expect(res.status).toBe(400);
    expect(res.text).not.toContain('id="email"');
    const field = /<div class="field">([\s\S]*?)<\/div>/.exec(res.text)?.[1] ?? '';
    // The input says it is invalid and points at the message, which sits in the same field.
    expect(field).toMatch(
      /<input id="mobile" name="phone"[^>]* aria-describedby="mobile-hint mobile-error" aria-invalid="true">/,
    );
    expect(field).toContain('value="+1 &#34;415&#34;&#60;b&#62;"');
    expect(field).toContain(
      '<p id="mobile-error" class="error" role="alert">Enter a valid mobile number &#60;now&#62;.</p>',
    );
    expect(res.text).not.toContain('id="form-error"');
    expect(res.text).toContain('<input type="radio" name="via" value="SMS" checked>SMS</label>');
    expect(res.text).toContain('<input type="radio" name="via" value="WHATSAPP">WhatsApp</label>');
  });

  it('a refusal of no one field stands above the form, with the status given', async () => {
    const res = await get('sign-in', (i) => {
      i.signIn = { action: '/send', error: { message: 'Try again in a moment.' }, status: 503 };
    });
    expect(res.status).toBe(503);
    expect(res.text).toMatch(/<p id="form-error" class="error" role="alert">Try again in a moment\.<\/p><form/);
    expect(res.text).not.toMatch(/<input[^>]*aria-invalid/);
  });
});

describe('the waiting page', () => {
  it('shows the number large, where the link went, the live status and the countdowns', async () => {
    const res = await get('waiting');
    expect(res.status).toBe(200);
    expect(res.text).toContain('<title>Check your messages</title>');
    expect(res.text).toContain('We sent a sign-in link to j***@example.com.');
    // What the number is for, and not to reply with it: never "type this number" as a headline.
    expect(res.text).toContain(
      '<p id="match-label">Opening the link on another device? It will ask for this number</p>',
    );
    expect(res.text).toContain('Do not reply to the message with it');
    expect(res.text).toContain('<p class="number" aria-describedby="match-label">42</p>');
    expect(res.text).toContain('<p id="waiting-status" role="status">Waiting for you to open the link…</p>');
    expect(res.text).toContain('The link expires in 4:10.');
    expect(res.text).toContain('You can ask for another link in 0:25.');
    expect(res.text).toMatch(
      /<button type="submit" class="secondary" id="resend-button" disabled>Send the link again<\/button>/,
    );
    expect(res.text).toContain('data-status-url="/status" data-continue-url="/auth/callback"');
    expect(res.text).toContain('<a href="/sign-in">Start again</a>');
  });

  it('runs its one script, allowed by its hash, and fetches only this site', async () => {
    const res = await get('waiting');
    const { inline, csp, scriptSrc } = scripts(res);
    expect(inline).toHaveLength(1);
    const hash = createHash('sha256').update(inline[0]!).digest('base64');
    expect(scriptSrc).toBe(`'sha256-${hash}'`);
    expect(csp).toContain("connect-src 'self'");
    expect(csp).not.toMatch(/unsafe-inline'[^;]*;[^;]*script|script-src[^;]*unsafe/);
  });

  it('without script: reloads every 5 s and offers "I’ve approved it: continue"', async () => {
    const res = await get('waiting');
    expect(res.text).toMatch(
      /<head>[\s\S]*<noscript><meta http-equiv="refresh" content="5"><\/noscript>[\s\S]*<\/head>/,
    );
    expect(res.text).toContain(
      '<noscript><p><a class="button" href="/auth/callback">I’ve approved it: continue</a></p></noscript>',
    );
  });

  it.each([
    ['denied', 'The sign-in was cancelled on the other device. Nobody was signed in.'],
    ['expired', 'The link expired before it was used. Nobody was signed in.'],
    ['none', 'No sign-in is waiting in this browser.'],
  ] as const)('%s: says so, offers "start again", and neither polls nor reloads', async (status, sentence) => {
    const res = await get('waiting', (i) => {
      i.waiting.status = status;
    });
    expect(res.status).toBe(200);
    expect(res.text).toContain('<title>This sign-in was not completed</title>');
    expect(res.text).toContain(`role="status" class="over">${sentence}</p>`);
    expect(res.text).toContain('<a class="button" href="/sign-in">Start again</a>');
    expect(res.text).not.toContain('class="number"');
    expect(res.text).not.toContain('http-equiv="refresh"');
    expect(res.text).not.toContain('Send the link again');
    expect(scripts(res)).toMatchObject({ inline: [], scriptSrc: undefined });
  });

  it('approved: the continue link is shown to everyone', async () => {
    const res = await get('waiting', (i) => {
      i.waiting.status = 'approved';
    });
    expect(res.text).toContain('<title>Sign-in approved</title>');
    expect(res.text).toMatch(
      /<p><a class="button" href="\/auth\/callback">I’ve approved it: continue<\/a><\/p>(?!<\/noscript>)/,
    );
  });

  it('escapes what it is given', async () => {
    const res = await get('waiting', (i) => {
      i.waiting.sentTo = ['<img src=x>'];
      i.waiting.continueUrl = '/cb?a="><script>';
      i.waiting.match = '<b>';
    });
    expect(res.text).not.toMatch(/<img src=x>|"><script>|<b>/);
    expect(res.text).toContain('&#60;img src=x&#62;');
    expect(res.text).toContain('data-continue-url="/cb?a=&#34;&#62;&#60;script&#62;"');
  });
});

describe('the error page', () => {
  it('says what happened by its code and what to do, with the status, and never more', async () => {
    const res = await get('error');
    expect(res.status).toBe(401);
    expect(res.text).toContain('<title>This sign-in did not work</title>');
    expect(res.text).toContain('This sign-in link is invalid, has expired or was already used. Ask for a new one.');
    expect(res.text).toContain('Start again to get a new sign-in link');
    expect(res.text).toContain('<a class="button" href="/sign-in">Start again</a>');
    expect(res.text).toContain('Error code: CODE_REJECTED');
    expect(scripts(res).inline).toEqual([]);
  });

  it('a service failure without message says "try again"; a code that is no code is never echoed', async () => {
    const res = await get('error', (i) => {
      i.error = { code: 'Error: at /srv/app/node_modules/x.js:1', status: 502, startAgainUrl: '/sign-in' };
    });
    expect(res.status).toBe(502);
    expect(res.text).toContain('Signing in is not possible right now.');
    expect(res.text).toContain('Error code: UNKNOWN');
    expect(res.text).not.toContain('/srv/app');
  });

  it('shows the message it is given (escaped), and never answers 2xx', async () => {
    const res = await get('error', (i) => {
      i.error = { code: 'WRONG_BROWSER', status: 200, message: 'Not <here>.', startAgainUrl: '/sign-in' };
    });
    expect(res.status).toBe(500);
    expect(res.text).toContain('<p>Not &#60;here&#62;.</p>');
  });
});

const LOCALES: Array<[string, string, string, string]> = [
  // Accept-Language, <html lang>, the sign-in button, the waiting page's number label
  ['hi', 'hi', 'मुझे साइन इन लिंक भेजें', 'लिंक किसी दूसरे डिवाइस पर खोल रहे हैं? वह यह नंबर माँगेगा'],
  ['id', 'id', 'Kirimkan tautan masuk', 'Membuka tautan di perangkat lain? Tautan itu akan meminta angka ini'],
  ['es', 'es', 'Enviarme un enlace de inicio de sesión', '¿Abres el enlace en otro dispositivo? Te pedirá este número'],
  ['pt-BR', 'pt-BR', 'Enviar link de login', 'Vai abrir o link em outro dispositivo? Ele vai pedir este número'],
];

describe('every built-in locale', () => {
  it.each(LOCALES)('%s', async (language, lang, button, matchLabel) => {
    const signIn = await get('sign-in', () => {}, language);
    expect(signIn.text).toContain(`<html lang="${lang}" dir="ltr">`);
    expect(signIn.text).toContain(`>${button}</button>`);
    const waiting = await get('waiting', () => {}, language);
    expect(waiting.text).toContain(`<p id="match-label">${matchLabel}</p>`);
    const error = await get('error', () => {}, language);
    expect(error.text).toContain(`<html lang="${lang}" dir="ltr">`);
    expect(error.text).not.toContain('This sign-in did not work');
    // Not one English sentence of the three pages is left.
    for (const res of [signIn, waiting, error]) {
      expect(res.text).not.toMatch(/Sign in|sign-in link|Start again|Error code/);
    }
  });
});

describe("the app's render function", () => {
  it('gets the typed views; a waiting page it draws may run the live script, other pages none', async () => {
    const seen: PageView[] = [];
    const render = (view: PageView) => {
      seen.push(view);
      const script = view.page === 'waiting' ? `<script>${view.liveScript}</script>` : '';
      return `<!doctype html><html lang="${view.locale}"><title>${view.title}</title><h1 class="app">${view.title}</h1>${script}</html>`;
    };
    for (const page of ['sign-in', 'waiting', 'error']) {
      const res = await get(page, (i) => {
        i.options = { render };
      });
      expect(res.text).toContain('<h1 class="app">');
      const { inline, scriptSrc } = scripts(res);
      if (page === 'waiting') {
        expect(scriptSrc).toBe(`'sha256-${createHash('sha256').update(inline[0]!).digest('base64')}'`);
      } else {
        expect(scriptSrc).toBeUndefined();
      }
    }
    expect(seen.map((v) => v.page)).toEqual(['signIn', 'waiting', 'error']);
    expect(seen[0]).toMatchObject({
      status: 200,
      form: { action: '/auth/magic-link', hidden: { returnTo: '/account' } },
    });
    expect(seen[1]).toMatchObject({
      flowStatus: 'pending',
      match: '42',
      sentTo: ['j***@example.com'],
      expiresInSeconds: 250,
      resend: { resendInSeconds: 25, hidden: { resend: '1' } },
      startAgain: { href: '/sign-in', label: 'Start again' },
    });
    expect(seen[2]).toMatchObject({ status: 401, code: 'CODE_REJECTED' });
  });
});
