// Passkeys after a link login on every host the package supports, each with passkeys turned on
// as its guide says (the mount's, the Fastify plugin's or the Nest module's one `passkeys`
// option), over real sockets with the emulator on port 0: a link login by e-mail lands on the
// offer; a passkey is made (the soft authenticator answers the browser's part); after logging out
// and asking for a link, the passkey signs the same user in with no message more sent (in a new
// server-side session), and the login record says so; a second browser with no link login is
// refused a registration, and signs in from the first of two open tabs. Also on each: the sign-in page's challenge (a cookie of its own) leaves
// a send made at the same time whole, "Not now" remembered, a JSON client's link login answered
// in JSON, and the passkey routes' body limit and media type whatever parsed the body first.
import { describe, expect, it } from 'vitest';
import { Browser } from '../examples/helpers/browser.js';
import type { Page } from '../examples/helpers/browser.js';
import { linkTo, openLink } from '../examples/helpers/inbox.js';
import { SoftAuthenticator } from '../helpers/softAuthenticator.js';
import { HOSTS, signedIn } from './hosts.js';
import { useHostSuite } from './suite.js';

const JSON_ACCEPT = { accept: 'application/json' };

const suite = useHostSuite();

const code = (page: Page): string => page.json<{ error: { code: string } }>().error.code;

for (const host of HOSTS) {
  describe(`${host.label} with ${host.session}`, () => {
    it('link login, passkey made on the offer, logout, passkey sign-in with no message; a registration without a link login is refused', async () => {
      const running = await suite.start(host, { passkeys: true });
      const { url } = running;
      const origin = new URL(url).origin;
      const browser = new Browser(url);
      const to = `${host.id}-passkey@example.com`;
      const device = new SoftAuthenticator(`${host.id}-device`);

      // (a) A link login by e-mail: the callback goes on to the offer, not yet to /me.
      const sent = await browser.postJson('/auth/magic-link', { email: to });
      expect(sent.status, sent.text).toBe(200);
      const callback = await openLink(browser, linkTo(suite.emulator(), to));
      expect(callback.status, callback.text).toBe(host.successStatus ?? 302);
      expect(new URL(callback.location!).pathname).toBe('/auth/passkey');
      expect(await signedIn(host, browser)).toEqual({ user: { id: to } });

      // (b) The offer, and a passkey made for this user.
      const offer = await browser.get(callback.location!);
      expect(offer.status, offer.text).toBe(200);
      expect(offer.headers.get('content-type')).toMatch(/^text\/html/);
      expect(offer.text).toContain('<h1>Sign in faster next time</h1>');
      expect(offer.headers.get('content-security-policy')).toContain(`script-src ${origin}/auth/passkey.js`);
      const script = await browser.get('/auth/passkey.js');
      expect(script.status).toBe(200);
      expect(script.headers.get('content-type')).toBe('text/javascript; charset=utf-8');

      const options = await browser.postJson('/auth/passkey/register-options', {});
      expect(options.status, options.text).toBe(200);
      const made = options.json<{ challenge: string; rp: { id: string }; user: { name: string } }>();
      expect(made.rp.id).toBe('localhost');
      expect(made.user.name).toBe(to);
      const registered = await browser.postJson(
        '/auth/passkey/register',
        device.attest({ challenge: made.challenge, origin, rpId: 'localhost' }),
      );
      expect(registered.status, registered.text).toBe(200);
      expect(registered.json()).toEqual({ registered: true, redirect: '/me' });
      // One passkey per link login: the grant is spent.
      expect(code(await browser.postJson('/auth/passkey/register-options', {}))).toBe('PASSKEY_NOT_ALLOWED');

      // (c) Logged out.
      expect((await browser.postJson(host.logoutPath ?? '/logout', {})).status).toBe(200);
      expect(await signedIn(host, browser)).toEqual({ user: null });

      // (d) A link asked for, then the passkey instead: it signs the same user in, and no message
      // more is sent. (The send leaves an anonymous session, which the login must not keep.)
      expect((await browser.postJson('/auth/magic-link', { email: to })).status).toBe(200);
      const outbox = suite.emulator().outbox().length;
      const signIn = await browser.get('/auth/sign-in');
      expect(signIn.status).toBe(200);
      expect(signIn.text).toContain('Sign in with a passkey');
      const sessionBefore = await running.sessions.read(browser);
      const loginOptions = await browser.postJson('/auth/passkey/login-options', {});
      expect(loginOptions.status, loginOptions.text).toBe(200);
      // The challenge is bound to this browser by a cookie of its own, not written to the session:
      // the sign-in page asks for it as it opens, and a session save then would race the send's.
      expect(loginOptions.headers.getSetCookie().find((c) => c.startsWith('otpless_passkey_login='))).toMatch(
        /^otpless_passkey_login=[\w-]{22}; Max-Age=120; Path=\/auth\/passkey; HttpOnly; SameSite=Strict$/,
      );
      expect(await running.sessions.read(browser)).toEqual(sessionBefore);
      const { challenge, rpId } = loginOptions.json<{ challenge: string; rpId: string }>();
      expect(rpId).toBe('localhost');
      const answer = device.assert({ challenge, origin, rpId, counter: 0 });
      // A server-side session is a new one once signed in (no fixation of the anonymous one).
      const anonymous = running.sessions.id(browser);
      const login = await browser.postJson('/auth/passkey/login', answer);
      expect(login.status, login.text).toBe(200);
      if (anonymous !== '') expect(running.sessions.id(browser)).not.toBe(anonymous);
      expect(login.json()).toEqual({ signedIn: true, redirect: '/me' });
      expect(suite.emulator().outbox().length).toBe(outbox);
      expect(await signedIn(host, browser)).toEqual({ user: { id: to } });
      // The login record says how: a passkey, with what the link login verified.
      const record = (await running.sessions.read(browser)).otpless;
      expect(record).toMatchObject({ id: to, via: 'passkey', verified: ['EMAIL'] });
      // requireLowRisk() (LowRiskGuard) fails closed on a passkey login, and says why.
      const payments = await browser.get('/payments', JSON_ACCEPT);
      expect(payments.status).toBe(403);
      expect(code(payments)).toBe('PASSKEY_NOT_ACCEPTED');
      // The same answer again is refused: its challenge was spent.
      const replay = await browser.postJson('/auth/passkey/login', answer);
      expect(replay.status).toBe(400);
      expect(code(replay)).toBe('PASSKEY_CHALLENGE_EXPIRED');

      // (e) A second browser, with no link login, is refused a registration.
      const other = browser.fresh();
      const refused = await other.postJson('/auth/passkey/register-options', {});
      expect(refused.status).toBe(403);
      expect(code(refused)).toBe('PASSKEY_NOT_ALLOWED');
      expect(await signedIn(host, other)).toEqual({ user: null });
      // Another site's page can start no ceremony.
      const crossSite = await other.postJson('/auth/passkey/login-options', {}, { origin: 'https://evil.example' });
      expect(crossSite.status).toBe(403);
      expect(code(crossSite)).toBe('CROSS_SITE');
      // The same passkey (synced) signs in there too, from the first of two open tabs of the
      // sign-in page (the second asked for a challenge of its own since), and returnTo is honoured.
      const firstTab = (await other.postJson('/auth/passkey/login-options', {})).json<{ challenge: string }>();
      const secondTab = await other.postJson('/auth/passkey/login-options', {});
      expect(secondTab.status, secondTab.text).toBe(200);
      expect(secondTab.headers.getSetCookie().find((c) => c.startsWith('otpless_passkey_login='))).toMatch(
        /^otpless_passkey_login=[\w-]{22}\.[\w-]{22}; /,
      );
      const there = await other.postJson('/auth/passkey/login', {
        ...device.assert({ challenge: firstTab.challenge, origin, rpId, counter: 0 }),
        returnTo: '/me?from=passkey',
      });
      expect(there.status, there.text).toBe(200);
      expect(there.json()).toEqual({ signedIn: true, redirect: '/me?from=passkey' });
      expect(await signedIn(host, other)).toEqual({ user: { id: to } });
      expect(suite.emulator().outbox().length).toBe(outbox);
    });

    it("the sign-in page's challenge, asked as the page opens, leaves a send made meanwhile whole", async () => {
      const running = await suite.start(host, { passkeys: true });
      const browser = new Browser(running.url);
      const to = `${host.id}-race@example.com`;
      // The page's script asks for a challenge as the page opens, and the person sends at once:
      // both requests leave with no cookie, and the challenge's answer comes back last. Had it
      // written the session, its cookie would replace the send's and the link would not sign in.
      const pageScript = browser.fresh();
      expect((await browser.postJson('/auth/magic-link', { email: to })).status).toBe(200);
      expect((await pageScript.postJson('/auth/passkey/login-options', {})).status).toBe(200);
      expect(Object.keys(pageScript.cookies())).toEqual(['otpless_passkey_login']);
      for (const [name, value] of Object.entries(pageScript.cookies())) browser.setCookie(name, value);
      const callback = await openLink(browser, linkTo(suite.emulator(), to));
      expect(callback.status, callback.text).toBe(host.successStatus ?? 302);
      expect(new URL(callback.location!).pathname).toBe('/auth/passkey');
      expect(await signedIn(host, browser)).toEqual({ user: { id: to } });
    });

    it("the passkey routes take JSON only, within the mount's 16 KiB, on this host's body parsing", async () => {
      const running = await suite.start(host, { passkeys: true });
      const browser = new Browser(running.url);
      // Fastify and Nest parse bodies before the mount: the limit is the mount's all the same.
      const big = await browser.postJson('/auth/passkey/login-options', { padding: 'x'.repeat(20 * 1024) });
      expect(big.status).toBe(413);
      expect(code(big)).toBe('BODY_TOO_LARGE');
      expect(big.headers.get('x-content-type-options')).toBe('nosniff');
      const form = await browser.postForm('/auth/passkey/login-options', {}, JSON_ACCEPT);
      expect(form.status).toBe(415);
      expect(code(form)).toBe('UNSUPPORTED_MEDIA_TYPE');
      const options = await browser.postJson('/auth/passkey/login-options', {});
      expect(options.status).toBe(200);
      expect(options.headers.get('content-type')).toBe('application/json; charset=utf-8');
      expect(options.headers.get('x-content-type-options')).toBe('nosniff');
    });

    it("a JSON client's link login gets its JSON answer, not the offer", async () => {
      const running = await suite.start(host, { passkeys: true });
      const browser = new Browser(running.url);
      const to = `${host.id}-json@example.com`;
      expect((await browser.postJson('/auth/magic-link', { email: to })).status).toBe(200);
      const redirect = await browser.get(linkTo(suite.emulator(), to));
      const answer = await browser.get(redirect.location!, JSON_ACCEPT);
      expect(answer.status, answer.text).toBe(200);
      expect(answer.json()).toEqual({ signedIn: true, redirect: '/me' });
      expect(await signedIn(host, browser)).toEqual({ user: { id: to } });
    });

    it('"Not now" on the offer goes on to /me, and the browser is not offered again', async () => {
      const running = await suite.start(host, { passkeys: true });
      const browser = new Browser(running.url);
      const to = `${host.id}-later@example.com`;
      const linkLogin = async (): Promise<Page> => {
        expect((await browser.postJson('/auth/magic-link', { email: to })).status).toBe(200);
        return openLink(browser, linkTo(suite.emulator(), to));
      };
      const first = await linkLogin();
      expect(new URL(first.location!).pathname).toBe('/auth/passkey');
      expect((await browser.get(first.location!)).status).toBe(200);
      // The offer's "Not now" is a form (it works without script).
      const later = await browser.postForm('/auth/passkey/not-now');
      expect(later.status, later.text).toBe(303);
      expect(new URL(later.location!).pathname).toBe('/me');
      expect(later.headers.getSetCookie().join()).toMatch(
        /otpless_passkey_later=1; Max-Age=2592000; Path=\/; HttpOnly/,
      );
      expect(browser.cookies().otpless_passkey_later).toBe('1');
      expect(await signedIn(host, browser)).toEqual({ user: { id: to } });
      expect(code(await browser.postJson('/auth/passkey/register-options', {}))).toBe('PASSKEY_NOT_ALLOWED');
      // The next link login in this browser goes straight on.
      const next = await linkLogin();
      expect(next.status).toBe(host.successStatus ?? 302);
      expect(new URL(next.location!).pathname).toBe('/me');
      expect(await signedIn(host, browser)).toEqual({ user: { id: to } });
    });
  });
}
