/** What a page answered, as the tests look at it. */
export interface Page {
  status: number;
  headers: Headers;
  /** The Location header resolved against the request URL, when there is one. */
  location: string | undefined;
  text: string;
  json<T = unknown>(): T;
}

/**
 * A small browser over real sockets: `fetch` with a cookie jar. Like a browser it keeps
 * cookies per host, whatever the port, so two app instances on 127.0.0.1 share the session
 * cookie; redirects are not followed, so the tests see each step.
 */
export class Browser {
  private readonly jar = new Map<string, Map<string, string>>();

  constructor(
    private readonly baseUrl: string,
    private readonly userAgent = 'ExamplesTestBrowser/1.0',
  ) {}

  get(url: string, headers: Record<string, string> = {}): Promise<Page> {
    return this.request('GET', url, undefined, headers);
  }

  /** Submits a form (`application/x-www-form-urlencoded`), as a browser does. */
  postForm(url: string, form: Record<string, string> = {}, headers: Record<string, string> = {}): Promise<Page> {
    return this.request('POST', url, new URLSearchParams(form).toString(), {
      'content-type': 'application/x-www-form-urlencoded',
      ...headers,
    });
  }

  postJson(url: string, body: unknown, headers: Record<string, string> = {}): Promise<Page> {
    return this.request('POST', url, JSON.stringify(body), {
      'content-type': 'application/json',
      accept: 'application/json',
      ...headers,
    });
  }

  /** Posts a body as written (a malformed one, say), with its media type. */
  postText(url: string, text: string, type: string, headers: Record<string, string> = {}): Promise<Page> {
    return this.request('POST', url, text, { 'content-type': type, ...headers });
  }

  /** Follows redirects (GET after each, as browsers do after 302/303) and returns the last page. */
  async follow(first: Page, limit = 5): Promise<Page> {
    let page = first;
    for (let i = 0; page.location && i < limit; i += 1) page = await this.get(page.location);
    return page;
  }

  /** The cookies this browser would send to `url`, by name. */
  cookies(url: string = this.baseUrl): Record<string, string> {
    return Object.fromEntries(this.jar.get(new URL(url, this.baseUrl).hostname) ?? []);
  }

  /** Sets a cookie as a `Set-Cookie` from `url` would (a test playing whoever writes the session). */
  setCookie(name: string, value: string, url: string = this.baseUrl): void {
    this.store(new URL(url, this.baseUrl).hostname, [`${name}=${value}`]);
  }

  /** A second browser profile: same user agent, no cookies. */
  fresh(): Browser {
    return new Browser(this.baseUrl, this.userAgent);
  }

  private async request(
    method: string,
    url: string,
    body: string | undefined,
    headers: Record<string, string>,
  ): Promise<Page> {
    const target = new URL(url, this.baseUrl);
    const cookie = [...(this.jar.get(target.hostname) ?? [])].map(([name, value]) => `${name}=${value}`).join('; ');
    const res = await fetch(target, {
      method,
      body,
      redirect: 'manual',
      headers: {
        'user-agent': this.userAgent,
        accept: 'text/html',
        // Browsers name the page's origin on every POST (the page was served by the app itself).
        ...(method === 'POST' ? { origin: target.origin } : {}),
        ...(cookie ? { cookie } : {}),
        ...headers,
      },
    });
    this.store(target.hostname, res.headers.getSetCookie());
    const text = await res.text();
    const location = res.headers.get('location');
    return {
      status: res.status,
      headers: res.headers,
      location: location ? new URL(location, target).toString() : undefined,
      text,
      json: <T>() => JSON.parse(text) as T,
    };
  }

  private store(host: string, setCookies: string[]): void {
    const cookies = this.jar.get(host) ?? new Map<string, string>();
    for (const line of setCookies) {
      const [pair = '', ...attributes] = line.split(';').map((part) => part.trim());
      const eq = pair.indexOf('=');
      const name = pair.slice(0, eq);
      const value = pair.slice(eq + 1);
      const expired = attributes.some((a) => {
        const [key = '', val = ''] = a.split('=');
        if (/^max-age$/i.test(key)) return Number(val) <= 0;
        if (/^expires$/i.test(key)) return Date.parse(val) <= Date.now();
        return false;
      });
      if (expired || value === '') cookies.delete(name);
      else cookies.set(name, value);
    }
    this.jar.set(host, cookies);
  }
}

/** Page text without markup, spaces collapsed: what a person reads. */
export function visibleText(html: string): string {
  return html
    .replace(/<style[\s\S]*?<\/style>/gi, ' ')
    .replace(/<[^>]+>/g, ' ')
    .replace(/&amp;/g, '&')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/\s+/g, ' ')
    .trim();
}
