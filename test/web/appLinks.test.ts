// The one list of messaging-app links a page may carry (src/web/appLinks.ts), and the phone check.
import { describe, expect, it } from 'vitest';
import { isPhoneBrowser, SERVICE_APP_LINKS, serviceAppLink } from '../../src/web/appLinks.js';

describe('serviceAppLink', () => {
  it('lists exactly the documented shape: WhatsApp click-to-chat on wa.me', () => {
    expect(SERVICE_APP_LINKS.map((l) => `${l.channel} ${l.protocol}//${l.host}`)).toEqual(['WHATSAPP https://wa.me']);
  });

  it.each([
    ['https://wa.me/911141169439', 'https://wa.me/911141169439'],
    ['https://WA.ME/910000000000', 'https://wa.me/910000000000'],
  ])('%s is the service’s: rebuilt as %s', (uri, href) => {
    expect(serviceAppLink(uri)).toEqual({ channel: 'WHATSAPP', href });
  });

  it.each([
    'sms:+910000000000',
    'whatsapp://send?phone=910000000000',
    'viber://chat?number=%2B910000000000',
    'tel:+910000000000',
    'http://wa.me/910000000000',
    'https://wa.me.evil.example/910000000000',
    'https://evil.example/wa.me/910000000000',
    'https://user@wa.me/910000000000',
    'https://wa.me:8443/910000000000',
    'https://wa.me/910000000000?text=reply%2042',
    'https://wa.me/910000000000#x',
    'https://wa.me/',
    'https://wa.me/91abc',
    'https://wa.me/910000000000/extra',
    'javascript:alert(1)',
    'not a url',
    '',
    42,
    undefined,
    `https://wa.me/${'9'.repeat(300)}`,
  ])('%s is not: no button', (uri) => {
    expect(serviceAppLink(uri)).toBeUndefined();
  });
});

describe('isPhoneBrowser', () => {
  it.each([
    ['Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 Mobile/15E148 Safari/604.1', true],
    ['Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 Chrome/120.0 Mobile Safari/537.36', true],
    ['Mozilla/5.0 (Linux; Android 14; SM-X710) AppleWebKit/537.36 Chrome/120.0 Safari/537.36', false],
    ['Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 Chrome/120.0 Safari/537.36', false],
    ['Mozilla/5.0 (Macintosh; Intel Mac OS X 14_0) AppleWebKit/605.1.15 Version/17.0 Safari/605.1.15', false],
    [undefined, false],
  ])('%s: %s', (ua, phone) => {
    expect(isPhoneBrowser(ua)).toBe(phone);
  });
});
