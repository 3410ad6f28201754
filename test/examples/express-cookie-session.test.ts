import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator } from '../../src/emulator/index.js';
import type { Emulator } from '../../src/emulator/index.js';
import { Browser, visibleText } from './helpers/browser.js';
import type { Page } from './helpers/browser.js';
import { ensureBuilt } from './helpers/ensureBuild.js';
import { linkTo, openLink } from './helpers/inbox.js';
import type { CountryCode, SendLimitsOptions } from '../../src/index.js';

// The example imports 'passport-otpless' (dist/): build it first if src/ changed.
await ensureBuilt();
const { startApp } = await import('../../examples/express-cookie-session/app.mjs');
const { riskCause } = await import('../../examples/express-cookie-session/user.mjs');
type Started = Awaited<ReturnType<typeof startApp>>;
type Limits = SendLimitsOptions | false;

const CLIENT = { clientId: 'cookie-example-client', clientSecret: 'cookie-example-secret-value' };
const ROOMY: Limits = { perIp: { limit: 100, windowSeconds: 60 }, perDestination: { limit: 100, windowSeconds: 60 } };

let emulator: Emulator;
const apps: Started[] = [];
const logged: string[] = [];

beforeAll(async () => {
  emulator = await startEmulator({ clients: [CLIENT], quiet: true });
});
afterEach(async () => {
  emulator.clearFaults();
  logged.length = 0;
  await Promise.all(apps.splice(0).map((a) => a.close()));
});
afterAll(async () => {
  await emulator.close();
});

async function start(
  limits: Limits = ROOMY,
  defaultCountry?: CountryCode,
  { demo = true } = {},
): Promise<{ app: Started; browser: Browser }> {
  const app = await startApp({
    otpless: { ...CLIENT, authUrl: emulator.authUrl, userAuthUrl: emulator.userAuthUrl },
    sessionKeys: ['a-test-session-key-0123456789'],
    ...(demo ? { devInboxUrl: `${emulator.authUrl}/` } : {}),
    limits,
    ...(defaultCountry ? { defaultCountry } : {}),
    log: (line) => logged.push(line),
  });
  apps.push(app);
  return { app, browser: new Browser(app.url) };
}

/** What a person reads in the page's main part (not the top bar, which names the user). */
function mainText(html: string): string {
  return visibleText(/<main[^>]*>([\s\S]*)<\/main>/.exec(html)?.[1] ?? '');
}

/** What the session cookie holds (cookie-session: base64 JSON, readable by its holder). */
function sessionOf(browser: Browser): Record<string, unknown> {
  const cookie = browser.cookies()['acme.session'];
  return cookie ? (JSON.parse(Buffer.from(cookie, 'base64').toString('utf8')) as Record<string, unknown>) : {};
}

/** The sign-in page's fields: `email` for an address, `mobile` for anything else. */
function form(contact: string, extra: Record<string, string> = {}): Record<string, string> {
  return { ...(contact.includes('@') ? { email: contact } : { mobile: contact }), ...extra };
}

/** Sign-in page -> waiting page -> link (as `risk`) -> callback; returns the callback's answer. */
async function logIn(browser: Browser, contact: string, risk?: string): Promise<Page> {
  const sent = await browser.postForm('/auth/magic-link', form(contact));
  expect(sent.status).toBe(303);
  expect(sent.location).toMatch(/\/auth\/waiting$/);
  return openLink(browser, linkTo(emulator, contact), risk);
}

describe('express-cookie-session example', () => {
  it("sends a visitor to the package's sign-in page, in Acme's colours, with the WhatsApp / SMS choice", async () => {
    const { browser } = await start();
    const start_ = await browser.get('/');
    expect(start_.status).toBe(302);
    expect(new URL(start_.location!).pathname).toBe('/auth/sign-in');
    const page = await browser.get('/auth/sign-in');
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/text\/html/);
    expect(page.text).toContain('<label for="email">E-mail address</label>');
    expect(page.text).toContain('<label for="mobile">Mobile number</label>');
    expect(page.text).toContain('name="channel" value="SMS"');
    expect(page.text).toContain('<p class="brand">Acme</p>');
    expect(page.text).toContain('#2451d6');
    expect(page.headers.get('content-security-policy')).toContain("default-src 'none'");
    expect(page.text).not.toMatch(/<script|<link /i);
  });

  it('logs in by e-mail and shows identities, device, network and the verdict', async () => {
    const { app, browser } = await start();
    const sent = await browser.postForm('/auth/magic-link', { email: '  Jane.Doe@Example.com ' });
    const waiting = await browser.get(sent.location!);
    expect(visibleText(waiting.text)).toContain('We sent a sign-in link to Ja•••@example.com');
    // Demo mode: the waiting page says where the link really is.
    expect(visibleText(waiting.text)).toContain(`Open the link from the dev inbox, ${emulator.authUrl}/`);

    const callback = await openLink(browser, linkTo(emulator, 'jane.doe@example.com'));
    expect(callback.status).toBe(303);
    expect(callback.location).toBe(`${app.url}/account`);
    const account = await browser.get('/account');
    expect(account.status).toBe(200);
    expect(account.headers.get('cache-control')).toBe('no-store');
    const text = visibleText(account.text);
    expect(text).toContain('Welcome, Jane Doe');
    expect(text).toMatch(/E-mail jane\.doe@example\.com Confirmed by magic link on .* UTC Verified/);
    expect(text).toContain('Bengaluru, India');
    expect(text).toContain('IP address 127.0.0.1');
    expect(text).toContain('Low risk');
    // The whole session fits in its cookie, far from the 4 KB browsers keep.
    expect(browser.cookies()['acme.session']!.length).toBeLessThan(2500);

    const payments = await browser.get('/payments');
    expect(payments.status).toBe(200);
    expect(visibleText(payments.text)).toContain('Recent payments');
  });

  it('logs in by mobile number typed with spaces and dashes', async () => {
    const { browser } = await start();
    const callback = await logIn(browser, '+1 415-555-0123');
    expect(callback.status).toBe(303);
    const text = visibleText((await browser.get('/account')).text);
    expect(text).toMatch(/Mobile \+14155550123 Confirmed by magic link on .* UTC Verified/);
    expect(text).toContain('Welcome, User 0123');
  });

  it.each([
    ['email', 'jane@', 'Enter a valid e-mail address, such as name@example.com.'],
    ['mobile', '12', 'Enter the mobile number with its country code'],
    ['email', 'a'.repeat(5000), 'Enter a valid e-mail address'],
  ])('shows the error next to the %s field for %j, keeping the text', async (field, value, message) => {
    const { browser } = await start();
    const page = await browser.postForm('/auth/magic-link', { email: '', mobile: '', [field]: value });
    expect(page.status).toBe(400);
    expect(page.text).toMatch(
      new RegExp(`<p id="${field}-error" class="error" role="alert">${message.replace(/[.+]/g, '\\$&')}`),
    );
    expect(page.text).toContain('aria-invalid="true"');
    if (value.length < 320) expect(page.text).toContain(`value="${value}"`);
    expect(page.text).not.toMatch(/ at .*\.m?js:\d+/);
  });

  it('asks for an address or a number when both fields are empty', async () => {
    const { browser } = await start();
    const before = emulator.outbox().length;
    const page = await browser.postForm('/auth/magic-link', { email: '', mobile: '', channel: 'WHATSAPP' });
    expect(page.status).toBe(400);
    expect(page.text).toContain('<label for="email">E-mail address</label>');
    expect(page.text).toMatch(/role="alert">Enter an e-mail address or a mobile number/);
    expect(emulator.outbox()).toHaveLength(before);
  });

  it('escapes what the visitor typed', async () => {
    const { browser } = await start();
    const page = await browser.postForm('/auth/magic-link', { email: '"><script>alert(1)</script>@x' });
    expect(page.status).toBe(400);
    expect(page.text).not.toContain('<script>alert(1)</script>');
    expect(page.text).toContain('value="&#34;&#62;&#60;script&#62;alert(1)&#60;/script&#62;@x"');
  });

  it('allows five links per destination in 15 minutes (the library default), however it is typed', async () => {
    const { browser } = await start({ perIp: { limit: 100, windowSeconds: 900 } }, 'GB');
    for (const contact of [
      'sam@example.com',
      'SAM@example.com',
      ' sam@Example.com ',
      'sam+news@example.com',
      'Sam+x@EXAMPLE.com',
    ]) {
      expect((await browser.postForm('/auth/magic-link', form(contact))).status).toBe(303);
    }
    const refused = await browser.postForm('/auth/magic-link', form('sam@example.com'));
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(800);
    expect(visibleText(refused.text)).toContain(
      'Too many sign-in links were sent to this e-mail address. Try again in 15 minutes.',
    );
    expect(refused.text).toContain('value="sam@example.com"');
    expect(emulator.outbox().filter((e) => /^sam(\+\w+)?@example\.com$/i.test(e.to))).toHaveLength(5);
    // Another destination is not affected; the same phone in another format is (read in GB).
    expect((await browser.postForm('/auth/magic-link', form('other@example.com'))).status).toBe(303);
    for (const contact of [
      '+44 7400 123456',
      '07400 123456',
      '+44 (0)7400 123-456',
      '0044 7400 123456',
      '7400123456',
    ]) {
      expect((await browser.postForm('/auth/magic-link', form(contact))).status).toBe(303);
    }
    expect((await browser.postForm('/auth/magic-link', form('+447400123456'))).status).toBe(429);
  });

  it('limits sends per visitor IP, whatever the destinations', async () => {
    const { browser } = await start({ perIp: { limit: 5, windowSeconds: 60 } });
    for (let i = 0; i < 5; i += 1) {
      expect((await browser.postForm('/auth/magic-link', form(`user${i}@example.com`))).status).toBe(303);
    }
    const refused = await browser.postForm('/auth/magic-link', form('user5@example.com'));
    expect(refused.status).toBe(429);
    expect(visibleText(refused.text)).toContain(
      'Too many sign-in links were asked for from this network. Try again in 1 minute.',
    );
    expect(emulator.outbox().some((e) => e.to === 'user5@example.com')).toBe(false);
  });

  it('reads a number without a country code in defaultCountry', async () => {
    const { browser } = await start(ROOMY, 'US');
    expect((await browser.postForm('/auth/magic-link', form('(415) 555-0123'))).status).toBe(303);
    const callback = await openLink(browser, linkTo(emulator, '+14155550123'));
    expect(callback.status).toBe(303);
    expect(visibleText((await browser.get('/account')).text)).toMatch(/Mobile \+14155550123 Confirmed/);
  });

  it.each([
    ['vpn', 'Needs confirmation', 'looks unusual', 'Please confirm it is you'],
    ['bot', 'High risk', 'looks automated or modified', 'This page is not available from this sign-in'],
    ['missing', 'Not checked', 'We could not check this sign-in', 'We could not check this sign-in'],
  ])(
    'a %s sign-in: the account says %j, offers Sign in again instead of payments, and payments refuse it',
    async (risk, verdict, wording, title) => {
      const { browser } = await start();
      await logIn(browser, `${risk}-user@example.com`, risk);
      const account = await browser.get('/account');
      const text = visibleText(account.text);
      expect(text).toContain(verdict);
      expect(text).toContain(wording);
      // The main action signs out and comes back to payments; payments is only the demo's aside.
      expect(account.text).toMatch(
        /<div class="actions">\s*<form class="inline" method="post" action="\/logout">\s*<input type="hidden" name="returnTo" value="\/payments" \/>\s*<button class="button" type="submit">Sign in again<\/button>/,
      );
      expect(account.text).not.toContain('>Open payments<');
      expect(account.text).toMatch(/<div class="demo">[\s\S]*<a href="\/payments">open payments anyway<\/a>/);

      const page = await browser.get('/payments');
      expect(page.status).toBe(403);
      const refused = mainText(page.text);
      expect(refused).toContain(title);
      expect(refused).toContain('Sign in again');
      expect(refused).toContain('Back to your account');
      // The refusal never tells which signal decided it (the account page does, in demo mode only).
      expect(refused).not.toMatch(/signal|timezoneMismatch|publicVPN|secureInfo|missing|\((bad|result)\)/i);
    },
  );

  it('never words missing signals as automation or tampering, and blocked advice allows private windows', async () => {
    const { browser } = await start();
    await logIn(browser, 'quiet@example.com', 'missing');
    const account = visibleText((await browser.get('/account')).text);
    expect(account).not.toMatch(/automated|tampered|modified|High risk/);
    expect(visibleText((await browser.get('/payments')).text)).not.toMatch(/automat|tamper|VPN/);

    const bot = browser.fresh();
    await logIn(bot, 'robot@example.com', 'bot');
    const refused = visibleText((await bot.get('/payments')).text);
    expect(refused).not.toContain('regular browser window');
    expect(refused).toContain('A private window is fine.');
  });

  it.each([
    ['vpn', 'Needs confirmation', 'looks unusual'],
    ['missing', 'Not checked', 'We could not check this sign-in'],
  ])(
    'outside demo mode a %s sign-in is worded by its cause, with no signal named and no reasons in the cookie',
    async (risk, verdict, wording) => {
      const { browser } = await start(ROOMY, undefined, { demo: false });
      await logIn(browser, 'someone@example.com', risk);
      const account = await browser.get('/account');
      const text = mainText(account.text);
      expect(text).toContain(verdict);
      expect(text).toContain(wording);
      expect(text).not.toMatch(/Demo|secureInfo|timezoneMismatch|publicVPN|\bvpn\b|missing \(/);
      expect(account.text).not.toContain('href="/payments"');
      expect(account.text).toContain('Sign in again</button>');
      const stored = (sessionOf(browser).passport as { user: { risk: Record<string, unknown> } }).user.risk;
      expect(stored).toEqual({
        action: risk === 'vpn' ? 'challenge' : 'block',
        cause: risk === 'vpn' ? 'flagged' : 'unchecked',
      });
    },
  );

  it('tells the cause class from the reasons that decided the verdict', () => {
    const missing = { signal: 'missing', action: 'block', detail: 'secureInfo' } as const;
    const vpn = { signal: 'vpn', action: 'challenge', detail: 'publicVPN' } as const;
    expect(riskCause({ action: 'allow', reasons: [] })).toBeUndefined();
    expect(riskCause({ action: 'block', reasons: [missing] })).toBe('unchecked');
    expect(riskCause({ action: 'block', reasons: [{ signal: 'malformed', action: 'block', detail: 'bot' }] })).toBe(
      'unchecked',
    );
    expect(riskCause({ action: 'block', reasons: [{ signal: 'bot', action: 'block', detail: 'unknown' }] })).toBe(
      'unchecked',
    );
    // A milder reason did not decide the verdict; a real signal among the deciding ones does.
    expect(riskCause({ action: 'block', reasons: [missing, vpn] })).toBe('unchecked');
    expect(riskCause({ action: 'challenge', reasons: [vpn] })).toBe('flagged');
    expect(riskCause({ action: 'block', reasons: [missing, { signal: 'bot', action: 'block', detail: 'bad' }] })).toBe(
      'flagged',
    );
  });

  it('asks another browser to approve instead of signing it in, and refuses a link used twice', async () => {
    const { browser } = await start();
    await browser.postForm('/auth/magic-link', form('twice@example.com'));
    const link = linkTo(emulator, 'twice@example.com');

    const other = browser.fresh();
    const elsewhere = await openLink(other, link);
    expect(elsewhere.status).toBe(200);
    expect(visibleText(elsewhere.text)).toContain('Approve sign-in on your computer?');
    expect((await other.get('/account')).location).toMatch(/\/auth\/sign-in$/);

    expect((await openLink(browser, link)).status).toBe(303);
    const replay = await openLink(browser, link);
    // The package's error page: what happened, what to do, the code; never a stack trace.
    expect(replay.status).toBeGreaterThanOrEqual(400);
    expect(replay.status).toBeLessThan(500);
    expect(visibleText(replay.text)).toContain('This sign-in did not work');
    expect(visibleText(replay.text)).toContain('already used');
    expect(replay.text).toContain('href="/auth/sign-in"');
    expect(replay.text).not.toMatch(/ at .*\.m?js:\d+/);
    // The user stays signed in from the first use.
    expect((await browser.get('/account')).status).toBe(200);
  });

  it('signs out with a POST, clears the session cookie and shows the sign-in page', async () => {
    const { browser } = await start();
    await logIn(browser, 'leaving@example.com');
    const account = await browser.get('/account');
    expect(account.text).toMatch(/<form class="inline" method="post" action="\/logout">/);
    const out = await browser.postForm('/logout');
    expect(out.status).toBe(303);
    expect(new URL(out.location!).pathname).toBe('/auth/sign-in');
    expect(browser.cookies()['acme.session']).toBeUndefined();
    const signedOut = await browser.get(out.location!);
    expect(signedOut.status).toBe(200);
    expect(signedOut.text).toContain('<label for="email">E-mail address</label>');
    const after = await browser.get('/account');
    expect(after.status).toBe(302);
    expect((await browser.get('/payments')).status).toBe(302);
  });

  it('sends a visitor to sign in, and returns to the page wanted', async () => {
    const { app, browser } = await start();
    const wanted = await browser.get('/payments?month=11');
    expect(wanted.status).toBe(302);
    expect(wanted.location).toBe(`${app.url}/auth/sign-in`);
    expect(sessionOf(browser).returnTo).toBe('/payments?month=11');

    const callback = await logIn(browser, 'returning@example.com');
    expect(callback.status).toBe(303);
    expect(callback.location).toBe(`${app.url}/payments?month=11`);
    expect(sessionOf(browser).returnTo).toBeUndefined();
    expect((await browser.get(callback.location!)).status).toBe(200);
    // Once used, it is gone: the next sign-in goes to the account.
    await browser.postForm('/logout');
    expect((await logIn(browser, 'returning@example.com')).location).toBe(`${app.url}/account`);
  });

  it('"Sign in again" signs out and returns to payments after the new sign-in', async () => {
    const { app, browser } = await start();
    await logIn(browser, 'again@example.com', 'vpn');
    const out = await browser.postForm('/logout', { returnTo: '/payments' });
    expect(out.status).toBe(303);
    expect(sessionOf(browser)).toEqual({ returnTo: '/payments' });
    expect(new URL(out.location!).pathname).toBe('/auth/sign-in');
    const callback = await logIn(browser, 'again@example.com');
    expect(callback.location).toBe(`${app.url}/payments`);
    expect((await browser.get('/payments')).status).toBe(200);
  });

  it.each(['//evil.example/x', 'https://evil.example/', '/\\evil.example', '/.//evil.example', 'payments'])(
    'never remembers %j as the page to return to',
    async (returnTo) => {
      const { app, browser } = await start();
      await logIn(browser, 'careful@example.com');
      await browser.postForm('/logout', { returnTo });
      expect(browser.cookies()['acme.session']).toBeUndefined();
      expect((await logIn(browser, 'careful@example.com')).location).toBe(`${app.url}/account`);
    },
  );

  it('answers a service failure with a friendly message and no stack trace', async () => {
    const { browser } = await start();
    emulator.fault({ path: '/auth/v1/authorize', status: 500 });
    const page = await browser.postForm('/auth/magic-link', form('down@example.com'));
    expect(page.status).toBeGreaterThanOrEqual(500);
    expect(visibleText(page.text)).toContain(
      'The sign-in link could not be sent right now. Please try again in a moment.',
    );
    expect(page.text).toContain('value="down@example.com"');
    expect(page.text).not.toMatch(/ at .*\.m?js:\d+/);
  });

  it("answers a service failure during the callback with the package's error page, never the code", async () => {
    const { browser } = await start();
    await browser.postForm('/auth/magic-link', form('late@example.com'));
    emulator.fault({ path: '/auth/v1/verify/code', status: 503 });
    const redirect = await browser.get(linkTo(emulator, 'late@example.com'));
    const code = new URL(redirect.location!).searchParams.get('code')!;
    const page = await browser.get(redirect.location!);
    expect(page.status).toBeGreaterThanOrEqual(500);
    expect(visibleText(page.text)).toContain('Signing in is not possible right now. Please try again in a moment.');
    expect(page.text).not.toMatch(/ at .*\.m?js:\d+/);
    expect(page.text).not.toContain(code);
    expect(logged.join('\n')).not.toContain(code);
  });

  it('answers unknown pages with a friendly 404', async () => {
    const { browser } = await start();
    const page = await browser.get('/nowhere');
    expect(page.status).toBe(404);
    expect(visibleText(page.text)).toContain('Page not found');
  });
});
