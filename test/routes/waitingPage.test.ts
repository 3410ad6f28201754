// The waiting page through the one mount (issue 40): where the link went and by which channel,
// "Open WhatsApp" on a phone, another channel after the wait in the same flow, JSON clients
// the same, an expired link's one-click new link, and limit refusals in the person's language.
// Real Express 5, express-session, Passport and the emulator on its own sockets.
import supertest from 'supertest';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { MagicLinkRoutesOptions, MagicLinkStrategyOptions } from '../../src/index.js';
import { startEmulator } from '../../src/emulator/index.js';
import type { Emulator } from '../../src/emulator/index.js';
import { ENDPOINTS } from '../../src/wire/endpoints.js';
import { clickLink, lastLinkTo } from '../helpers/harness.js';
import { useMountApps } from '../helpers/mountApp.js';

const CLIENT = { clientId: 'waiting-client', clientSecret: 'waiting-secret-value-0123456789' };
const PHONE_UA = 'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 Chrome/120.0 Mobile Safari/537.36';
const DESKTOP_UA = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 Chrome/120.0 Safari/537.36';
const SEND_PATH = ENDPOINTS.sendMagicLink.path;
const json = { accept: 'application/json' };

let emulator: Emulator;
beforeAll(async () => {
  emulator = await startEmulator({ clients: [CLIENT], quiet: true });
});
afterAll(() => emulator?.close());

const startMountApp = useMountApps(() => emulator, CLIENT, 'waiting-session-secret');
afterEach(() => {
  vi.useRealTimers();
  emulator.clearFaults();
});

let numbers = 0;
/** A fresh Indian mobile number per test: the send limits count per number. */
function number(): string {
  numbers += 1;
  return `+9198123${String(40000 + numbers).padStart(5, '0')}`;
}

async function startApp(
  mount: Omit<MagicLinkRoutesOptions, 'passport'> = {},
  strategyOptions: Partial<MagicLinkStrategyOptions> = {},
) {
  const { app, server, url } = await startMountApp(mount, strategyOptions);
  app.get('/me', (req, res) => (req.user ? res.json(req.user) : res.status(401).json({ error: 'no' })));
  // A browser names its origin on every POST, as real ones do.
  const browser = (ua = DESKTOP_UA) =>
    supertest.agent(server).set('origin', url).set('user-agent', ua).set('accept', 'text/html,*/*;q=0.8');
  return { url, browser };
}

/** The text a person reads: no tags, entities of the package's escaping read back. */
function visible(html: string): string {
  return html
    .replace(/<script[\s\S]*?<\/script>/g, '')
    .replace(/<[^>]+>/g, ' ')
    .replace(/&#(\d+);/g, (_m, code: string) => String.fromCharCode(Number(code)))
    .replace(/\s+/g, ' ');
}

describe('where the link went', () => {
  it('names the channel and the masked number, and what the number is for', async () => {
    const app = await startApp();
    const laptop = app.browser();
    const to = number();
    expect((await laptop.post('/auth/magic-link').type('form').send({ mobile: to })).status).toBe(303);
    const page = await laptop.get('/auth/waiting');
    expect(page.status).toBe(200);
    const text = visible(page.text);
    expect(text).toContain(`We sent a sign-in link to +91 ••••••${to.slice(-4)} by WhatsApp.`);
    expect(text).not.toContain(to.slice(3, 9));
    expect(text).toContain('Opening the link on another device? It will ask for this number');
    expect(text).toContain('Do not reply to the message with it');
    // Not on a computer: the messaging app is on the phone.
    expect(page.text).not.toContain('id="open-app"');
  });

  it('an e-mail address: by e-mail, masked, and one "send the link again"', async () => {
    const app = await startApp({ resendAfterSeconds: 0 });
    const laptop = app.browser();
    await laptop.post('/auth/magic-link').type('form').send({ email: 'nadia@waiting.example' });
    const page = await laptop.get('/auth/waiting');
    expect(visible(page.text)).toContain('We sent a sign-in link to na•••@waiting.example by e-mail.');
    expect(page.text).toContain(
      '<button type="submit" class="secondary" id="resend-button">Send the link again</button>',
    );
    expect(page.text).not.toContain('instead');
  });

  it('in the person’s language', async () => {
    const app = await startApp();
    const laptop = app.browser().set('accept-language', 'es');
    const to = number();
    await laptop.post('/auth/magic-link').type('form').send({ mobile: to });
    const page = await laptop.get('/auth/waiting');
    expect(visible(page.text)).toContain(
      `Enviamos un enlace de inicio de sesión a +91 ••••••${to.slice(-4)} por WhatsApp.`,
    );
    expect(visible(page.text)).toContain('Enviar por SMS en su lugar');
  });
});

describe('"Open WhatsApp" on a phone', () => {
  it('a destinationUri of the service’s own shape: a button to it', async () => {
    const app = await startApp();
    const phone = app.browser(PHONE_UA);
    await phone.post('/auth/magic-link').type('form').send({ mobile: number() });
    const page = await phone.get('/auth/waiting');
    expect(page.text).toContain('<a class="button" id="open-app" href="https://wa.me/910000000000">Open WhatsApp</a>');
  });

  it.each([
    ['another host', 'https://wa.me.example.net/910000000000'],
    ['a query', 'https://wa.me/910000000000?text=42'],
    ['another scheme', 'whatsapp://send?phone=910000000000'],
    ['sms:', 'sms:+910000000000'],
  ])('%s: no button, and the URI is nowhere in the page', async (_what, uri) => {
    const app = await startApp();
    const phone = app.browser(PHONE_UA);
    emulator.fault({
      path: SEND_PATH,
      status: 200,
      body: { requestIds: [{ type: 'MOBILE', value: 'req-odd-uri', destinationUri: uri }] },
    });
    await phone.post('/auth/magic-link').type('form').send({ mobile: number() });
    const page = await phone.get('/auth/waiting');
    expect(page.status).toBe(200);
    expect(page.text).not.toContain('id="open-app"');
    expect(page.text).not.toContain(uri.slice(0, 12));
  });
});

describe('another way, after the wait', () => {
  it('before the wait: the choices are there, disabled, with the time left', async () => {
    const app = await startApp();
    const laptop = app.browser();
    await laptop.post('/auth/magic-link').type('form').send({ mobile: number() });
    const page = await laptop.get('/auth/waiting');
    expect(page.text).toContain('<p id="again-title">Didn’t get it?</p>');
    expect(page.text).toContain(
      '<button type="submit" name="channel" value="SMS" id="resend-sms" disabled>Send by SMS instead</button>',
    );
    expect(page.text).toContain('id="resend-button" disabled>Send by WhatsApp again</button>');
    expect(page.text).toMatch(/You can ask for another link in 0:(30|29|28)\./);
  });

  it('WhatsApp not delivered: "Send by SMS instead" sends to the same number in the same flow, and its link signs the laptop in', async () => {
    const app = await startApp({ resendAfterSeconds: 0 });
    const laptop = app.browser();
    const to = number();
    emulator.fault({ path: SEND_PATH, notDelivered: 'WHATSAPP' });
    expect((await laptop.post('/auth/magic-link').type('form').send({ mobile: to })).status).toBe(303);
    // The service answered; nothing arrived.
    expect(emulator.outbox().filter((e) => e.to === to.slice(1))).toEqual([]);
    const first = await laptop.get('/auth/status').set(json);
    expect(first.body).toMatchObject({ status: 'pending', match: expect.stringMatching(/^\d{2}$/) });

    const page = await laptop.get('/auth/waiting');
    expect(page.text).toContain(
      '<button type="submit" name="channel" value="SMS" id="resend-sms">Send by SMS instead</button>',
    );
    const again = await laptop.post('/auth/magic-link').type('form').send({ resend: '1', channel: 'SMS' });
    expect(again.status).toBe(303);
    expect(again.headers.location).toBe('/auth/waiting');
    const sms = emulator.outbox().filter((e) => e.to === to.slice(1));
    expect(sms.map((e) => e.channel)).toEqual(['SMS']);
    // The same flow: the same number, the same expiry.
    const second = await laptop.get('/auth/status').set(json);
    expect(second.body).toEqual(first.body);
    const after = visible((await laptop.get('/auth/waiting')).text);
    expect(after).toContain(`We sent a sign-in link to +91 ••••••${to.slice(-4)} by SMS.`);
    expect(after).toContain('Send by WhatsApp instead');

    // The phone opens the SMS link and types the laptop's number.
    const phone = app.browser(PHONE_UA);
    const callback = await clickLink(sms[0]!.link);
    expect((await phone.get(callback)).status).toBe(200);
    const approved = await phone.post(callback).type('form').send({ match: first.body.match });
    expect(approved.status).toBe(200);
    expect(visible(approved.text)).toContain('You are signed in on your computer');
    // The laptop goes on to the callback, which signs it in.
    const finished = await laptop.get('/auth/callback');
    expect(finished.status).toBe(303);
    expect(finished.headers.location).toBe('/me');
    expect((await laptop.get('/me')).body).toEqual({ id: to });
  });

  it('the second link opened in the asking browser itself signs it in', async () => {
    const app = await startApp({ resendAfterSeconds: 0 });
    const laptop = app.browser();
    const to = number();
    await laptop.post('/auth/magic-link').type('form').send({ mobile: to });
    await laptop.post('/auth/magic-link').type('form').send({ resend: '1', channel: 'SMS' });
    const done = await laptop.get(await clickLink(lastLinkTo(emulator, to)));
    expect(done.headers.location).toBe('/me');
    expect((await laptop.get('/me')).body).toEqual({ id: to });
  });

  it('JSON clients get the same choices, and send by the other channel the same way', async () => {
    const app = await startApp({ resendAfterSeconds: 0 });
    const client = app.browser();
    const to = number();
    const sent = await client.post('/auth/magic-link').set(json).send({ mobile: to });
    expect(sent.status).toBe(200);
    const waiting = await client.get('/auth/waiting').set(json);
    expect(waiting.status).toBe(200);
    expect(waiting.body).toMatchObject({
      status: 'pending',
      match: sent.body.match,
      sentTo: [{ channel: 'WHATSAPP', to: `+91 ••••••${to.slice(-4)}` }],
      again: {
        action: '/auth/magic-link',
        body: { resend: '1' },
        inSeconds: 0,
        choices: [
          { channel: 'SMS', kind: 'instead' },
          { channel: 'WHATSAPP', kind: 'same' },
        ],
      },
    });
    const again = await client.post('/auth/magic-link').set(json).send({ resend: '1', channel: 'SMS' });
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({ sent: [{ type: 'MOBILE', channel: 'SMS' }], match: sent.body.match });
  });

  it('fallbackChannel: false offers the same channel only, and refuses another (400 on channel)', async () => {
    const app = await startApp({ resendAfterSeconds: 0 }, { fallbackChannel: false });
    const client = app.browser();
    await client.post('/auth/magic-link').set(json).send({ mobile: number() });
    const waiting = await client.get('/auth/waiting').set(json);
    expect(waiting.body.again.choices).toEqual([{ channel: 'WHATSAPP', kind: 'same' }]);
    const page = await client.get('/auth/waiting');
    expect(page.text).not.toContain('instead');
    const refused = await client.post('/auth/magic-link').set(json).send({ resend: '1', channel: 'SMS' });
    expect(refused.status).toBe(400);
    expect(refused.body.error).toMatchObject({ code: 'INVALID_INPUT', field: 'channel' });
  });

  it('within the send limits: a refusal says in the person’s language when to try again', async () => {
    const app = await startApp(
      { resendAfterSeconds: 0 },
      { limits: { perDestination: { limit: 1, windowSeconds: 600 } } },
    );
    const client = app.browser().set('accept-language', 'es');
    await client.post('/auth/magic-link').set(json).send({ mobile: number() });
    const refused = await client.post('/auth/magic-link').set(json).send({ resend: '1', channel: 'SMS' });
    expect(refused.status).toBe(429);
    expect(refused.headers['retry-after']).toMatch(/^\d+$/);
    expect(refused.body.error).toMatchObject({
      code: 'RATE_LIMITED',
      message:
        'Se enviaron demasiados enlaces de inicio de sesión a este número de móvil. Vuelve a intentarlo en 10 minutos.',
    });
    // A form post comes back to the sign-in page with the same words.
    const page = await client.post('/auth/magic-link').type('form').send({ resend: '1' });
    expect(page.status).toBe(429);
    expect(visible(page.text)).toContain('Vuelve a intentarlo en 10 minutos.');
  });
});

describe('an expired link: a new one in one click', () => {
  it('the error page in the browser that asked sends a new link to the same address', async () => {
    const app = await startApp();
    const laptop = app.browser();
    const email = 'omar@waiting.example';
    await laptop.post('/auth/magic-link').type('form').send({ email });
    const callback = await clickLink(lastLinkTo(emulator, email));
    // Past the link's expiry on both clocks: the service's (the emulator's) and the app's.
    emulator.advanceTime(301_000);
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + 301_000 });
    const failed = await laptop.get(callback);
    expect(failed.status).toBeGreaterThanOrEqual(400);
    expect(failed.status).toBeLessThan(500);
    expect(failed.text).toContain('<form method="post" action="/auth/magic-link" id="send-new">');
    expect(visible(failed.text)).toContain('We can send a new link to om•••@waiting.example.');
    const before = emulator.outbox().filter((e) => e.to === email).length;
    const sent = await laptop.post('/auth/magic-link').type('form').send({ resend: '1' });
    expect(sent.status).toBe(303);
    expect(sent.headers.location).toBe('/auth/waiting');
    expect(emulator.outbox().filter((e) => e.to === email)).toHaveLength(before + 1);
    // And the new link signs in.
    const done = await laptop.get(await clickLink(lastLinkTo(emulator, email)));
    expect(done.headers.location).toBe('/me');
  });

  it('another browser gets no such button: the destination is bound to the browser that asked', async () => {
    const app = await startApp();
    const laptop = app.browser();
    const email = 'lina@waiting.example';
    await laptop.post('/auth/magic-link').type('form').send({ email });
    const callback = await clickLink(lastLinkTo(emulator, email));
    emulator.advanceTime(301_000);
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + 301_000 });
    const elsewhere = await app.browser().get(callback);
    expect(elsewhere.status).toBeGreaterThanOrEqual(400);
    expect(elsewhere.text).not.toContain('id="send-new"');
    // And a resend posted there has nothing to send again.
    expect((await app.browser().post('/auth/magic-link').set(json).send({ resend: '1' })).status).toBe(400);
  });
});
