import { describe, expect, it } from 'vitest';
import { Browser } from '../examples/helpers/browser.js';
import { linkTo, openLink } from '../examples/helpers/inbox.js';
import { HOSTS } from './hosts.js';
import { useHostSuite } from './suite.js';
import type { HostDefinition } from './hosts.js';

// The session id comes from the session library, never from the session's data: on every host,
// a writer of the session store (for a cookie session, a holder of its key) who puts `id`,
// `sessionId` or `cookie` fields into a session moves neither the guards nor the handoff. On
// @fastify/session, which copies stored fields onto the session, a forged `id` used to win: a
// login record copied from the victim passed requireLowRisk(), and a copied pending send
// finished the victim's approval in the writer's browser.

const JSON_ACCEPT = { accept: 'application/json' };

const suite = useHostSuite();

let counter = 0;
const email = (host: HostDefinition): string => `fields-${host.id}-${(counter += 1)}@example.com`;
const mobile = (): string => `+9197${String(10_000_000 + (counter += 1)).slice(-8)}`;

async function userOf(host: HostDefinition, browser: Browser): Promise<unknown> {
  const me = host.me ? await host.me(browser) : (await browser.get('/me', JSON_ACCEPT)).json();
  return (me as { user: unknown }).user;
}

async function signIn(host: HostDefinition, browser: Browser): Promise<string> {
  const to = email(host);
  expect((await browser.postJson('/auth/magic-link', { email: to })).status).toBe(200);
  const callback = await openLink(browser, linkTo(suite.emulator(), to));
  expect(callback.status).toBe(host.successStatus ?? 302);
  expect(await userOf(host, browser)).toEqual({ id: to });
  return to;
}

/** The fields a writer adds: the library's own names for a session's id, set to `id`. */
function forged(session: Record<string, unknown>, id: string): Record<string, unknown> {
  const cookie = session.cookie && typeof session.cookie === 'object' ? session.cookie : {};
  return { ...session, id, sessionId: id, cookie: { ...cookie, id, sessionId: id } };
}

for (const host of HOSTS) {
  const serverSide = host.session === 'express-session' || host.session === '@fastify/session';
  describe(`${host.label} with ${host.session}: stored id fields`, () => {
    it('leave the guards where they were', async () => {
      const running = await suite.start(host, {});
      const { sessions } = running;
      const victim = new Browser(running.url);
      const writer = victim.fresh();
      await signIn(host, victim);
      const self = await signIn(host, writer);
      const victimId = sessions.id(victim);

      // Its own session with every id field forged: its own login still counts.
      await sessions.write(writer, forged(await sessions.read(writer), victimId || 'forged-id'));
      expect((await writer.get('/payments', JSON_ACCEPT)).status).toBe(200);
      expect(await userOf(host, writer)).toEqual({ id: self });

      if (!serverSide) return;
      // The victim's login record and user copied into the writer's session, its id forged as the
      // victim's: the session library's trust gives it the user, the guard refuses the record.
      const stolen = await sessions.read(victim);
      const own = await sessions.read(writer);
      await sessions.write(writer, forged({ ...own, otpless: stolen.otpless, passport: stolen.passport }, victimId));
      const payments = await writer.get('/payments', JSON_ACCEPT);
      expect(payments.status).toBe(401);
      // The victim is unmoved.
      expect((await victim.get('/payments', JSON_ACCEPT)).status).toBe(200);
    });

    it('leave the handoff where it was', async () => {
      const running = await suite.start(host, {});
      const { sessions } = running;
      const laptop = new Browser(running.url);
      const writer = laptop.fresh();
      const self = await signIn(host, writer);
      const to = mobile();
      const sent = await laptop.postJson('/auth/magic-link', { mobile: to });
      expect(sent.status).toBe(200);
      const { match } = sent.json<{ match: string }>();
      const phone = laptop.fresh();
      const callbackUrl = (await phone.get(linkTo(suite.emulator(), to))).location!;
      expect((await phone.postForm(callbackUrl, { match })).status).toBe(200);
      expect((await laptop.get('/auth/status', JSON_ACCEPT)).json()).toMatchObject({ status: 'approved' });
      const laptopId = sessions.id(laptop);

      if (serverSide) {
        // The laptop's pending send copied into the writer's session, its id forged as the laptop's.
        const waiting = await sessions.read(laptop);
        const own = await sessions.read(writer);
        await sessions.write(writer, forged({ ...own, otplessPending: waiting.otplessPending }, laptopId));
        const finish = await writer.get('/auth/callback', JSON_ACCEPT);
        expect(finish.status).not.toBe(host.successStatus ?? 302);
        expect(await userOf(host, writer)).toEqual({ id: self });
      }

      // The laptop's own session with every id field forged: it still finishes its own approval.
      await sessions.write(laptop, forged(await sessions.read(laptop), laptopId || 'forged-id'));
      const finish = await laptop.get('/auth/callback');
      expect(finish.status).toBe(host.successStatus ?? 302);
      expect(await userOf(host, laptop)).toEqual({ id: to });
    });
  });
}
