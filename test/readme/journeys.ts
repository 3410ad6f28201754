import { expect } from 'vitest';
import { Browser, visibleText } from '../examples/helpers/browser.js';
import type { Page } from '../examples/helpers/browser.js';
import type { RunningSnippet } from './freshFolder.js';

// The journeys a person makes through a guide's app, by HTTP as a browser makes them (forms,
// cookies, redirects one by one), over plain http: each ends on GET /me showing the user, and no
// answer on the way is a 5xx.

/** A phone's browser: the waiting page offers its messaging app only there. */
const PHONE_UA =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1';

/** A browser that expects no answer to be a 5xx: a person meets a page, never a server error. */
class Visitor extends Browser {
  override async get(url: string, headers: Record<string, string> = {}): Promise<Page> {
    return noServerError('GET', url, await super.get(url, headers));
  }

  override async postForm(
    url: string,
    form: Record<string, string> = {},
    headers: Record<string, string> = {},
  ): Promise<Page> {
    return noServerError('POST', url, await super.postForm(url, form, headers));
  }
}

function noServerError(method: string, url: string, page: Page): Page {
  expect(page.status, `${method} ${url} answered ${page.status}: ${visibleText(page.text).slice(0, 300)}`).toBeLessThan(
    500,
  );
  return page;
}

/** A delivery in the snippet's emulator outbox (its dev inbox as JSON). */
interface Delivery {
  to: string;
  channel: 'WHATSAPP' | 'SMS' | 'EMAIL';
  link: string;
}

/** Every link the snippet's emulator delivered to `to`, oldest first. */
async function deliveriesTo(app: RunningSnippet, to: string): Promise<Delivery[]> {
  const wanted = to.includes('@') ? to : to.replace(/\D/g, '');
  const res = await fetch(`${app.inbox}/__emulator/outbox`);
  expect(res.status).toBe(200);
  const outbox = (await res.json()) as { entries: Delivery[] };
  return outbox.entries.filter((e) => e.to === wanted);
}

/** The newest link the snippet's emulator delivered to `to`, read from its dev inbox. */
async function linkTo(app: RunningSnippet, to: string): Promise<string> {
  const entry = (await deliveriesTo(app, to)).at(-1);
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
  const browser = new Visitor(app.url);
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
  const laptop = new Visitor(app.url);
  const sent = await laptop.postForm('/auth/magic-link', { mobile });
  expect(sent.status, sent.text).toBe(303);
  expectSessionCookie(sent, 'the send');
  const waiting = await laptop.get('/auth/waiting');
  const { match } = (await laptop.get('/auth/status', { accept: 'application/json' })).json<{ match: string }>();
  expect(match).toMatch(/^\d{2}$/);
  expect(visibleText(waiting.text)).toContain(match);

  const phone = new Visitor(app.url, 'PhoneBrowser/1.0');
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

/** A `<form>` of a page as a browser without script submits it: action, hidden fields, buttons. */
interface PageForm {
  action: string;
  hidden: Record<string, string>;
  buttons: Array<{ name?: string; value?: string; label: string; disabled: boolean }>;
}

function formById(html: string, id: string): PageForm | undefined {
  const form = new RegExp(`<form method="post" action="([^"]+)" id="${id}">([\\s\\S]*?)</form>`).exec(html);
  if (!form) return undefined;
  const attr = (tag: string, name: string): string | undefined => new RegExp(`\\s${name}="([^"]*)"`).exec(tag)?.[1];
  const hidden: Record<string, string> = {};
  for (const [input] of form[2]!.matchAll(/<input type="hidden"[^>]*>/g))
    hidden[attr(input, 'name')!] = attr(input, 'value')!;
  const buttons = [...form[2]!.matchAll(/<button([^>]*)>([^<]*)<\/button>/g)].map(([, tag, label]) => ({
    ...(attr(tag!, 'name') !== undefined ? { name: attr(tag!, 'name')!, value: attr(tag!, 'value')! } : {}),
    label: label!,
    disabled: /\sdisabled\b/.test(tag!),
  }));
  return { action: form[1]!, hidden, buttons };
}

/** Submits `form` by its button labelled `label`, as a browser without script does. */
function submit(browser: Browser, form: PageForm, label: string): Promise<Page> {
  const button = form.buttons.find((b) => b.label === label);
  expect(button, `no button "${label}"`).toBeDefined();
  expect(button!.disabled, `"${label}" is disabled`).toBe(false);
  return browser.postForm(form.action, { ...form.hidden, ...(button!.name ? { [button!.name]: button!.value! } : {}) });
}

/** What GET /auth/waiting answers a JSON client: where the link went, and the ways to get it again. */
interface WaitingJson {
  status: string;
  match?: string;
  sentTo: Array<{ channel: string; to: string }>;
  again?: {
    action: string;
    body: Record<string, string>;
    inSeconds: number;
    choices: Array<{ channel: string; kind: string }>;
  };
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Waits out the resend wait as the page counts it: sleeps the seconds the waiting JSON says
 * remain, then asks again until they are 0 (at most `limitMs` in all).
 */
async function waitForAgain(browser: Browser, limitMs = 90_000): Promise<WaitingJson> {
  const deadline = Date.now() + limitMs;
  for (;;) {
    const answer = await browser.get('/auth/waiting', { accept: 'application/json' });
    expect(answer.status, answer.text).toBe(200);
    const waiting = answer.json<WaitingJson>();
    expect(waiting.status).toBe('pending');
    const left = waiting.again!.inSeconds;
    if (left === 0) return waiting;
    if (Date.now() > deadline) throw new Error(`the resend wait still says ${left} s after ${limitMs / 1000} s`);
    await sleep(Math.min(Math.max(left * 1000, 250), deadline - Date.now() + 250));
  }
}

/**
 * A mobile sign-in whose WhatsApp message does not come (issue 40): the waiting page names
 * WhatsApp and the masked number, and what the two-digit number is for; after the resend wait,
 * "Send by SMS instead" (the page's no-script form) sends the same sign-in by SMS; the phone
 * opens the SMS link and types the number; the laptop's page goes on and signs it in.
 */
export async function smsInsteadJourney(app: RunningSnippet, mobile: string): Promise<void> {
  expect(mobile, 'an Indian number, masked as +91 ••••••1234').toMatch(/^\+91\d{10}$/);
  const masked = `+91 ••••••${mobile.slice(-4)}`;
  const laptop = new Visitor(app.url);
  const sent = await laptop.postForm('/auth/magic-link', { mobile });
  expect(sent.status, sent.text).toBe(303);
  expect(new URL(sent.location!).pathname).toBe('/auth/waiting');

  const waiting = await laptop.get(sent.location!);
  expect(waiting.status).toBe(200);
  const seen = visibleText(waiting.text);
  expect(seen).toContain(`We sent a sign-in link to ${masked} by WhatsApp.`);
  expect(seen, 'the page shows the number masked, never whole').not.toContain(mobile.slice(3));
  const match = /<p class="number"[^>]*>(\d{2})<\/p>/.exec(waiting.text)?.[1];
  expect(match).toMatch(/^\d{2}$/);
  expect(seen).toContain(`Opening the link on another device? It will ask for this number ${match}`);
  expect(seen).toContain('Do not reply to the message with it: type it only on the page the link opens.');
  // Before the wait: the choice is there, disabled, with the time left.
  expect(seen).toMatch(/Didn’t get it\? You can ask for another link in 0:[0-3]\d\./);
  const early = formById(waiting.text, 'waiting-resend');
  expect(early?.buttons).toEqual([
    { name: 'channel', value: 'SMS', label: 'Send by SMS instead', disabled: true },
    { label: 'Send by WhatsApp again', disabled: true },
  ]);
  const json = (await laptop.get('/auth/waiting', { accept: 'application/json' })).json<WaitingJson>();
  expect(json).toMatchObject({ status: 'pending', match, sentTo: [{ channel: 'WHATSAPP', to: masked }] });
  expect(json.again!.inSeconds).toBeGreaterThan(0);
  expect(json.again!.choices).toEqual([
    { channel: 'SMS', kind: 'instead' },
    { channel: 'WHATSAPP', kind: 'same' },
  ]);
  expect((await deliveriesTo(app, mobile)).map((d) => d.channel)).toEqual(['WHATSAPP']);

  // After the wait (as the JSON counts it), the page offers the choice enabled: no script needed.
  await waitForAgain(laptop);
  const ready = await laptop.get('/auth/waiting');
  expect(ready.status).toBe(200);
  expect(visibleText(ready.text)).not.toContain('You can ask for another link in');
  const again = formById(ready.text, 'waiting-resend');
  expect(again).toBeDefined();
  const resent = await submit(laptop, again!, 'Send by SMS instead');
  expect(resent.status, resent.text).toBe(303);
  expect(new URL(resent.location!).pathname).toBe('/auth/waiting');

  const bySms = await laptop.get(resent.location!);
  expect(bySms.status).toBe(200);
  expect(visibleText(bySms.text)).toContain(`We sent a sign-in link to ${masked} by SMS.`);
  // The same sign-in: the same number to type.
  expect(/<p class="number"[^>]*>(\d{2})<\/p>/.exec(bySms.text)?.[1]).toBe(match);
  const deliveries = await deliveriesTo(app, mobile);
  expect(deliveries.map((d) => d.channel)).toEqual(['WHATSAPP', 'SMS']);

  // The phone opens the SMS link, types the number, approves.
  const phone = new Visitor(app.url, PHONE_UA);
  const redirect = await phone.get(deliveries.at(-1)!.link);
  expect(redirect.status).toBe(302);
  const callback = redirect.location!;
  const approval = await phone.get(callback);
  expect(approval.status).toBe(200);
  expect(approval.text).toContain('name="match"');
  const approved = await phone.postForm(callback, { match: match! });
  expect(approved.status, approved.text).toBe(200);
  expect(visibleText(approved.text)).toContain('You are signed in on your computer');

  // The laptop's waiting page (scripts off: its reload) goes on, and the laptop is signed in.
  const reload = await laptop.get('/auth/waiting');
  expect(reload.status, reload.text).toBe(303);
  await expectSignedIn(laptop, await laptop.get(reload.location!), mobile);
}

/**
 * A link that can no longer sign in: opened again after it signed the browser in. The error page
 * says so (4xx, its code), and its way on is "Start again", whose sign-in page sends a new link
 * that signs in. Its one-click "Send a new link" is offered only while the browser's session still
 * holds the sign-in it waits for (an expired or refused link, before any sign-in); after the
 * login it holds none, so the page does not offer it here (test/e2e/waitingPage.test.ts covers
 * the expired link, on a manual clock).
 */
export async function usedLinkJourney(app: RunningSnippet, address: string): Promise<void> {
  const browser = new Visitor(app.url);
  await browser.postForm('/auth/magic-link', { email: address });
  const link = await linkTo(app, address);
  const first = await browser.get(link);
  await expectSignedIn(browser, await browser.get(first.location!), address);

  const second = await browser.get(link);
  expect(second.status).toBe(302);
  const used = await browser.get(second.location!);
  expect(used.status).toBe(401);
  expect(used.headers.get('content-type')).toMatch(/^text\/html/);
  const seen = visibleText(used.text);
  expect(seen).toContain('This sign-in did not work');
  expect(seen).toContain('This sign-in request has expired or was already used. Ask for a new link.');
  expect(seen).toContain('Error code: FLOW_EXPIRED');
  expect(seen).not.toContain('Send a new link');
  expect(formById(used.text, 'send-new')).toBeUndefined();
  const startAgain = /<a class="button" href="([^"]+)">Start again<\/a>/.exec(used.text)?.[1];
  expect(startAgain).toBe('/auth/sign-in');
  // Still signed in: a used link signs nobody out.
  const me = await browser.get('/me', { accept: 'application/json' });
  expect(me.status).toBe(200);
  expect(JSON.stringify(me.json())).toContain(address);

  // "Start again": the sign-in page, and a new link to the same address signs in.
  const signIn = await browser.get(startAgain!);
  expect(signIn.status, signIn.text).toBe(200);
  expect(signIn.text).toContain('action="/auth/magic-link"');
  const before = (await deliveriesTo(app, address)).length;
  const sent = await browser.postForm('/auth/magic-link', { email: address });
  expect(sent.status, sent.text).toBe(303);
  const deliveries = await deliveriesTo(app, address);
  expect(deliveries).toHaveLength(before + 1);
  expect(deliveries.at(-1)!.link).not.toBe(link);
  const redirect = await browser.get(deliveries.at(-1)!.link);
  expect(redirect.status).toBe(302);
  await expectSignedIn(browser, await browser.get(redirect.location!), address);
}
