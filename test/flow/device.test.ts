// What the phone is told of the browser
// that asked for the link ("Chrome on Windows"), the one clue a person has that the request was
// theirs. Through the approval route's JSON: each browser and system named, or none.
import { describe, expect, it } from 'vitest';
import { clickLink, lastLinkTo } from '../helpers/harness.js';
import { useSharedEmulator } from '../helpers/sharedEmulator.js';

const pool = useSharedEmulator();

const W = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko)';
const IPHONE = 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko)';
const IPAD = 'Mozilla/5.0 (iPad; CPU OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko)';
const MAC = 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko)';

const CASES: Array<[string, { browser?: string; os?: string }]> = [
  [`${W} Chrome/120.0 Safari/537.36 Edg/120.0`, { browser: 'Edge', os: 'Windows' }],
  [`${IPHONE} EdgiOS/120.0 Mobile/15E148 Safari/605.1.15`, { browser: 'Edge', os: 'iOS' }],
  [
    'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0 Safari/537.36 OPR/105.0',
    { browser: 'Opera', os: 'Linux' },
  ],
  [
    'Mozilla/5.0 (Linux; Android 13; SM-S901B) AppleWebKit/537.36 (KHTML, like Gecko) SamsungBrowser/23.0 Chrome/115.0 Mobile Safari/537.36',
    { browser: 'Samsung Internet', os: 'Android' },
  ],
  [
    'Mozilla/5.0 (Macintosh; Intel Mac OS X 10.15; rv:120.0) Gecko/20100101 Firefox/120.0',
    { browser: 'Firefox', os: 'macOS' },
  ],
  [`${IPAD} FxiOS/120.0 Mobile/15E148 Safari/605.1.15`, { browser: 'Firefox', os: 'iPadOS' }],
  [`${IPHONE} CriOS/120.0 Mobile/15E148 Safari/604.1`, { browser: 'Chrome', os: 'iOS' }],
  [
    'Mozilla/5.0 (X11; CrOS x86_64 14541.0.0) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0 Safari/537.36',
    { browser: 'Chrome', os: 'ChromeOS' },
  ],
  [`${MAC} Version/17.0 Safari/605.1.15`, { browser: 'Safari', os: 'macOS' }],
  ['curl/8.4.0', {}],
  // Only the first 512 characters are read: a name past them is not looked for.
  [`${'x'.repeat(512)} Firefox/120.0 (Windows NT 10.0)`, {}],
];

describe('the asking browser, as the phone is told', () => {
  it.each(CASES)('%s', async (userAgent, named) => {
    const h = await pool.harness();
    const email = 'device@example.com';
    const laptop = h.browser().set('user-agent', userAgent);
    expect((await laptop.post('/auth/magic-link').set('accept', 'application/json').send({ email })).status).toBe(200);
    const callback = await clickLink(lastLinkTo(h.emulator, email));
    const res = await h.browser().get(callback).set('accept', 'application/json');
    expect(res.status).toBe(200);
    expect(res.body.askedBy).toEqual({ ...named, at: expect.any(String) });
  });
});
