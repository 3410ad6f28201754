import { expect } from 'vitest';
import { Browser, visibleText } from '../examples/helpers/browser.js';
import type { Page } from '../examples/helpers/browser.js';
import type { RunningSnippet } from './freshFolder.js';

// The journeys a person makes through a guide's app, by HTTP as a browser makes them (forms,
// cookies, redirects one by one), over plain http: each ends on GET /me showing the user.

/** The newest link the snippet's emulator delivered to `to`, read from its dev inbox. */
async function linkTo(app: RunningSnippet, to: string): Promise<string> {
  const wanted = to.includes('@') ? to : to.replace(/\D/g, '');
  const outbox = (await (await fetch(`${app.inbox}/__emulator/outbox`)).json()) as {
    entries: Array<{ to: string; link: string }>;
  };
  const entry = outbox.entries.filter((e) => e.to === wanted).at(-1);
  if (!entry) throw new Error(`no link was delivered to ${to}`);
  return entry.link;
}

/** The session cookie a browser would keep over http: set, and not `Secure` (which http drops). */
function expectSessionCookie(page: Page, what: string): void {
  const cookies = page.headers.getSetCookie();
  expect(cookies, `${what}: the answer set no session cookie`).not.toEqual([]);
  expect(
    cookies.filter((c) => /;\s*secure\b/i.test(c)),
    `${what}: a Secure cookie never comes back over http`,
  ).toEqual([]);
}

/**
 * Opens GET /me as a browser and expects the signed-in user named by `who`. An app with passkeys
 * on first shows the offer after a link login: this browser runs no script, so it takes the
 * page's no-script way on (its refresh), as a browser without script does.
 */
async function expectSignedIn(browser: Browser, landing: Page, who: string): Promise<void> {
  expect(landing.status, landing.text).toBe(303);
  if (new URL(landing.location!).pathname === '/auth/passkey') {
    const offer = await browser.get(landing.location!);
    expect(offer.status, offer.text).toBe(200);
    const next = /<noscript><meta http-equiv="refresh" content="0;url=([^"]+)"><\/noscript>/.exec(offer.text)?.[1];
    expect(next).toBe('/me');
    const me = await browser.get('/me', { accept: 'application/json' });
    expect(me.status, me.text).toBe(200);
    expect(JSON.stringify(me.json())).toContain(who);
    return;
  }
  expect(new URL(landing.location!).pathname).toBe('/me');
  const me = await browser.get('/me', { accept: 'application/json' });
  expect(me.status, me.text).toBe(200);
  expect(JSON.stringify(me.json())).toContain(who);
}

/** E-mail, the same browser: the sign-in page, the waiting page, the link. */
export async function emailJourney(app: RunningSnippet, address: string): Promise<void> {
  const browser = new Browser(app.url);
  const page = await browser.get('/auth/sign-in');
  expect(page.status, page.text).toBe(200);
  expect(page.text).toContain('action="/auth/magic-link"');
  const sent = await browser.postForm('/auth/magic-link', { email: address });
  expect(sent.status, sent.text).toBe(303);
  expectSessionCookie(sent, 'the send');
  const waiting = await browser.get(sent.location!);
  expect(waiting.status).toBe(200);
  expect(visibleText(waiting.text)).toContain('@example.com');

  const redirect = await browser.get(await linkTo(app, address));
  expect(redirect.status).toBe(302);
  await expectSignedIn(browser, await browser.get(redirect.location!), address);
}

/** A mobile number, the link opened on the phone: the phone types the laptop's number. */
export async function phoneJourney(app: RunningSnippet, mobile: string): Promise<void> {
  const laptop = new Browser(app.url);
  const sent = await laptop.postForm('/auth/magic-link', { mobile });
  expect(sent.status, sent.text).toBe(303);
  expectSessionCookie(sent, 'the send');
  const waiting = await laptop.get('/auth/waiting');
  const { match } = (await laptop.get('/auth/status', { accept: 'application/json' })).json<{ match: string }>();
  expect(match).toMatch(/^\d{2}$/);
  expect(visibleText(waiting.text)).toContain(match);

  const phone = new Browser(app.url, 'PhoneBrowser/1.0');
  const callback = (await phone.get(await linkTo(app, mobile))).location!;
  const approval = await phone.get(callback);
  expect(approval.status).toBe(200);
  expect(approval.text).toContain('name="match"');
  const approved = await phone.postForm(callback, { match });
  expect(approved.status, approved.text).toBe(200);

  // The laptop's waiting page (scripts off: its reload) sends an approved flow to the callback.
  const reload = await laptop.get('/auth/waiting');
  expect(reload.status, reload.text).toBe(303);
  await expectSignedIn(laptop, await laptop.get(reload.location!), mobile);
}
