// The check's local callback and the paste reader, over real sockets and streams.
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { startListener } from '../../src/check/listener.js';
import { readPastedUrl } from '../../src/check/paste.js';

describe('the local callback listener', () => {
  it('takes the first landing with a parameter of the service, answers a page that repeats nothing', async () => {
    const listener = await startListener(0, 'flow');
    try {
      expect(listener.callbackUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/callback$/);
      const response = await fetch(`${listener.callbackUrl}?flow=probe&code=secret-code-123`);
      expect(response.status).toBe(200);
      expect(response.headers.get('cache-control')).toBe('no-store');
      expect(response.headers.get('referrer-policy')).toBe('no-referrer');
      expect(await response.text()).not.toContain('secret-code-123');
      expect((await listener.landed).url).toBe(`${listener.callbackUrl}?flow=probe&code=secret-code-123`);
      // A second landing is taken apart (the link opened twice), a third only answered.
      const again = await fetch(`${listener.callbackUrl}?code=other`);
      expect(await again.text()).not.toContain('already received');
      expect((await listener.second).url).toBe(`${listener.callbackUrl}?code=other`);
      const third = await fetch(`${listener.callbackUrl}?code=third`);
      expect(await third.text()).toContain('already received');
      expect((await listener.landed).url).toContain('secret-code-123');
      expect((await listener.second).url).toContain('code=other');
    } finally {
      await listener.close();
    }
  });

  it('forwards a fragment through its page (browsers never send one), and 404s/405s the rest', async () => {
    const listener = await startListener(0, 'flow');
    try {
      const page = await fetch(`${listener.callbackUrl}?flow=probe`);
      const html = await page.text();
      expect(html).toContain("location.replace('/landed?q='");
      expect((await fetch(listener.callbackUrl.replace('/callback', '/favicon.ico'))).status).toBe(404);
      expect((await fetch(listener.callbackUrl, { method: 'POST' })).status).toBe(405);
      // What the page's script does in a browser:
      const q = encodeURIComponent('flow=probe');
      const h = encodeURIComponent('code=in-the-fragment');
      await (await fetch(listener.callbackUrl.replace('/callback', `/landed?q=${q}&h=${h}`))).text();
      expect((await listener.landed).url).toBe(`${listener.callbackUrl}?flow=probe#code=in-the-fragment`);
    } finally {
      await listener.close();
    }
  });

  it('fails to start on a port in use, and closes idempotently', async () => {
    const first = await startListener(0, 'flow');
    const port = Number(new URL(first.callbackUrl).port);
    await expect(startListener(port, 'flow')).rejects.toThrow(/EADDRINUSE/);
    await first.close();
    await first.close();
    await expect(fetch(first.callbackUrl)).rejects.toThrow();
  });
});

describe('the pasted landing URL', () => {
  it('takes the first line that is a URL with a query, after a hint for any other line', async () => {
    const input = new PassThrough();
    const hints: string[] = [];
    const pasted = readPastedUrl(input, new AbortController().signal, (line) => hints.push(line));
    input.write('\n  \nhello\n');
    input.write('  "http://127.0.0.1:1234/callback?flow=probe&code=abc"  \n');
    expect(await pasted).toBe('http://127.0.0.1:1234/callback?flow=probe&code=abc');
    expect(hints).toHaveLength(1);
    expect(hints[0]).not.toContain('hello');
  });

  it('resolves undefined when the input ends or the wait is aborted', async () => {
    const ended = new PassThrough();
    const first = readPastedUrl(ended, new AbortController().signal, () => {});
    ended.end('not a url\n');
    expect(await first).toBeUndefined();

    const abort = new AbortController();
    const second = readPastedUrl(new PassThrough(), abort.signal, () => {});
    abort.abort();
    expect(await second).toBeUndefined();
  });
});
