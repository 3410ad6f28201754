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
    const entry = lastEntry(emulator, 'MOBILE');
    expect(html).toContain(new Date(entry.expiresAt).toISOString());
    expect(html).toContain(`href="${entry.link}"`);
    for (const risk of RISK_SCENARIOS.filter((scenario) => scenario !== 'clean')) {
      expect(html).toContain(`href="${entry.link}?risk=${risk}"`);
    }
    expect(html).not.toMatch(/<script|https?:\/\/(?!127\.0\.0\.1|app\.test)/);
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
    expect(body).toEqual({ entries: emulator.outbox() });
    expect(body.entries.map((entry) => [entry.to, entry.channel])).toEqual([
      ['919876543210', 'WHATSAPP'],
      ['a@example.com', 'EMAIL'],
      ['b@example.com', 'EMAIL'],
    ]);
  });
});
