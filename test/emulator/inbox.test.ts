// The dev inbox page and its JSON twin: newest first, escaped, one button per scenario, no codes.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { RISK_SCENARIOS, startEmulator, type Emulator } from '../../src/emulator/index.js';
import { click, codeOf, lastEntry, sendLink, verify } from './helpers.js';

let emulator: Emulator;
beforeAll(async () => {
  emulator = await startEmulator({ quiet: true });
});
beforeEach(() => emulator.reset());
afterAll(() => emulator.close());

async function inbox(): Promise<{ response: Response; html: string }> {
  const response = await fetch(`${emulator.authUrl}/`);
  return { response, html: await response.text() };
}

describe('HTML inbox', () => {
  it('says so when nothing was sent', async () => {
    const { response, html } = await inbox();
    expect(response.status).toBe(200);
    expect(html).toContain('No links sent yet');
  });

  it('lists links newest first, with destination, type, expiry and a button per risk scenario', async () => {
    await sendLink(emulator, { email: 'older@example.com', expiry: '600' });
    await sendLink(emulator, { mobile_number: '919876543210' });
    const { response, html } = await inbox();
    expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(response.headers.get('content-security-policy')).toContain("default-src 'none'");
    expect(html.indexOf('919876543210')).toBeLessThan(html.indexOf('older@example.com'));
    expect(html).toContain('WhatsApp');
    expect(html).toContain('E-mail');
    expect(html).toContain('2 links delivered.');
    // The number in E.164: the outbox keeps digits with the country code, a person reads +.
    expect(html).toContain('</span>+919876543210</h2>');
    const entry = lastEntry(emulator, 'MOBILE');
    expect(entry.to).toBe('919876543210');
    expect(html).toContain(new Date(entry.expiresAt).toISOString());
    expect(html).toContain(`href="${entry.link}"`);
    for (const risk of RISK_SCENARIOS.filter((scenario) => scenario !== 'clean')) {
      expect(html).toContain(`href="${entry.link}?risk=${risk}"`);
    }
    expect(html).not.toMatch(/<script|https?:\/\/(?!127\.0\.0\.1|app\.test)/);
  });

  it('counts links in words: 1 link, 2 links', async () => {
    await sendLink(emulator, { email: 'one@example.com' });
    expect((await inbox()).html).toContain('1 link delivered.');
    await sendLink(emulator, { email: 'two@example.com' });
    const { html } = await inbox();
    expect(html).toContain('2 links delivered.');
    expect(html).not.toContain('link(s)');
  });

  it('shows times relative to now, with the exact ISO time in a title', async () => {
    await sendLink(emulator, { email: 'timed@example.com', expiry: '600' });
    const entry = lastEntry(emulator);
    const sent = new Date(entry.createdAt).toISOString();
    const expires = new Date(entry.expiresAt).toISOString();
    let { html } = await inbox();
    expect(html).toContain(`<dt>Sent</dt><dd><time datetime="${sent}" title="${sent}">just now</time></dd>`);
    expect(html).toContain(
      `<dt>Expires</dt><dd><time datetime="${expires}" title="${expires}">in 10 minutes</time></dd>`,
    );
    emulator.advanceTime(2 * 60_000);
    ({ html } = await inbox());
    expect(html).toContain('>2 minutes ago</time>');
    expect(html).toContain('>in 8 minutes</time>');
    emulator.advanceTime(9 * 60_000);
    ({ html } = await inbox());
    expect(html).toContain('>11 minutes ago</time>');
    expect(html).toContain(`<dt>Expired</dt><dd><time datetime="${expires}" title="${expires}">1 minute ago</time>`);
    // A raw ISO time is never the text a person reads.
    expect(html).not.toMatch(/>\d{4}-\d{2}-\d{2}T[^<]*</);
  });

  it('gives a waiting link a neutral badge, not the green of success', async () => {
    await sendLink(emulator, { email: 'neutral@example.com' });
    const { html } = await inbox();
    expect(html).toContain('<span class="badge waiting">waiting</span>');
    const rule = /\.waiting\{([^}]*)\}/.exec(html)?.[1] ?? '';
    expect(rule).toContain('background:#fff');
    expect(rule).not.toMatch(/#dff3e4|green/);
  });

  it('shows the channel of each link: WHATSAPP, SMS or EMAIL', async () => {
    await sendLink(emulator, { mobile_number: '919876543210', channel: 'SMS' });
    let { html } = await inbox();
    expect(html).toContain('<span class="badge">SMS</span>');
    expect(html).toContain('<dt>Channel</dt><dd>SMS</dd>');
    expect(html).not.toContain('WhatsApp');
    await sendLink(emulator, { mobile_number: '919876543211', email: 'both@example.com' });
    ({ html } = await inbox());
    expect(html).toContain('<dt>Channel</dt><dd>WHATSAPP</dd>');
    expect(html).toContain('<dt>Channel</dt><dd>EMAIL</dd>');
  });

  it('escapes what the sender controls', async () => {
    await sendLink(emulator, {
      email: 'x@example.com',
      redirect_uri: 'http://app.test/cb?x="><script>alert(1)</script>',
    });
    const { html } = await inbox();
    expect(html).not.toContain('<script>');
    expect(html).toContain('&quot;&gt;&lt;script&gt;');
  });

  it("never shows a code or a session token, and shows each link's state", async () => {
    await sendLink(emulator, { email: 'state@example.com', expiry: '60' });
    const entry = lastEntry(emulator);
    expect((await inbox()).html).toContain('waiting');
    const code = codeOf(await click(entry.link));
    let { html } = await inbox();
    expect(html).toContain('clicked');
    expect(html).not.toContain(code);
    expect(html).not.toContain(entry.sessionToken);
    await verify(emulator, code);
    ({ html } = await inbox());
    expect(html).toContain('verified');
    expect(html).not.toContain(code);

    await sendLink(emulator, { email: 'late@example.com', expiry: '60' });
    emulator.advanceTime(61_000);
    ({ html } = await inbox());
    expect(html).toContain('expired');
  });
});

describe('JSON outbox', () => {
  it('answers the same entries as outbox(), newest last', async () => {
    await sendLink(emulator, { mobile_number: '919876543210', email: 'a@example.com' });
    await sendLink(emulator, { email: 'b@example.com' });
    const response = await fetch(`${emulator.authUrl}/__emulator/outbox`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    const body = (await response.json()) as { entries: Array<{ to: string; channel: string }> };
    // Without session tokens: no page or JSON of the emulator shows one.
    expect(body).toEqual({ entries: emulator.outbox().map(({ sessionToken: _t, ...entry }) => entry) });
    expect(JSON.stringify(body)).not.toContain('sessionToken');
    expect(body.entries.map((entry) => [entry.to, entry.channel])).toEqual([
      ['919876543210', 'WHATSAPP'],
      ['a@example.com', 'EMAIL'],
      ['b@example.com', 'EMAIL'],
    ]);
  });
});
