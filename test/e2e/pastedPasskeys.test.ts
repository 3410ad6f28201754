// docs/passkeys.md's first runnable block, pasted into a new folder with the packed package
// (as test/readme/readme.test.ts pastes it) and run as `npx tsx app.mts` would run it, then used
// in real Chromium with the DevTools virtual authenticator as the guide's steps say: open /me,
// sign in by an e-mail link from the dev inbox, accept the offer; clear the cookies, open /me
// again and sign in with "Sign in with a passkey", the emulator's outbox unchanged; /me then
// shows `via: 'passkey'` and /payments, which accepts passkey logins by name, answers.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser, BrowserContext, CDPSession, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OUTBOX_PATH } from '../../src/emulator/devPaths.js';
import type { OutboxEntry } from '../../src/emulator/types.js';
import { ensureBuilt } from '../examples/helpers/ensureBuild.js';
import { codeBlocks } from '../readme/blocks.js';
import { freshFolder, runSnippet } from '../readme/freshFolder.js';
import type { FreshFolder, RunningSnippet } from '../readme/freshFolder.js';
import { addPlatformAuthenticator, CHROMIUM, launchChromium } from './browser.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const GUIDE = 'docs/passkeys.md';
const WAIT = { timeout: 45_000 };
const EMAIL = 'pasted-passkeys@example.com';

/** The guide's first block marked `<!-- runnable -->`, as readme.test.ts finds it. */
const block = codeBlocks(readFileSync(join(root, GUIDE), 'utf8'), GUIDE).find((b) => b.runnable);

/** The emulator's outbox, read as JSON from the dev inbox's host the app printed. */
async function outbox(app: RunningSnippet): Promise<Array<Omit<OutboxEntry, 'sessionToken'>>> {
  const answer = await fetch(`${app.inbox}${OUTBOX_PATH}`);
  expect(answer.status).toBe(200);
  return ((await answer.json()) as { entries: Array<Omit<OutboxEntry, 'sessionToken'>> }).entries;
}

/** What the page shows as JSON (an Express `res.json` answer, as the browser displays it). */
async function shownJson(page: Page): Promise<unknown> {
  return JSON.parse(await page.locator('body').innerText()) as unknown;
}

if (!existsSync(CHROMIUM)) {
  describe(`${GUIDE}'s runnable block, pasted, in a real browser`, () => {
    it.skip(`needs ${CHROMIUM} (apt-get install -y --no-install-recommends chromium); CI installs it`, () => {});
  });
} else {
  describe(`${GUIDE}'s runnable block, pasted into a new folder, in real Chromium with passkeys`, () => {
    let folder: FreshFolder | undefined;
    let app: RunningSnippet | undefined;
    let browser: Browser | undefined;
    let context: BrowserContext;
    let page: Page;
    let cdp: CDPSession;
    let authenticatorId: string;

    beforeAll(async () => {
      expect(block, `no block marked runnable in ${GUIDE}`).toBeDefined();
      // The fresh folder packs dist/: build it first if src/ changed, as the other e2e files do.
      await ensureBuilt();
      folder = freshFolder(root);
      app = await runSnippet(folder.dir, folder.write('app', block!.code));
      browser = await launchChromium();
      context = await browser.newContext({ viewport: { width: 1280, height: 860 } });
      page = await context.newPage();
      ({ cdp, authenticatorId } = await addPlatformAuthenticator(context, page));
    }, 300_000);

    afterAll(async () => {
      await context?.close().catch(() => {});
      await browser?.close();
      app?.stop();
      folder?.remove();
    });

    it('listens on localhost, as the guide says to use, and prints the dev inbox', () => {
      expect(app!.url).toMatch(/^http:\/\/localhost:\d+$/);
      expect(app!.output()).toContain(`open ${app!.url}/me; dev inbox: ${app!.inbox}`);
    });

    it('/me asks for a sign-in; the e-mail link from the dev inbox leads to the offer, which makes a passkey', async () => {
      const { url } = app!;
      await page.goto(`${url}/me`);
      await page.waitForURL(`${url}/auth/sign-in?returnTo=/me`, WAIT);
      await page.locator('#email').fill(EMAIL);
      await Promise.all([
        page.waitForURL(`${url}/auth/waiting`, WAIT),
        page.locator('form button[type="submit"]').click(),
      ]);

      const sent = (await outbox(app!)).filter((e) => e.to === EMAIL);
      expect(sent).toHaveLength(1);
      await page.goto(sent[0]!.link);

      await page.waitForURL(`${url}/auth/passkey`, WAIT);
      const offer = page.getByRole('button', { name: 'Use a passkey on this device' });
      await offer.waitFor({ state: 'visible', ...WAIT });
      expect(await page.locator('h1').innerText()).toBe('Sign in faster next time');
      await Promise.all([page.waitForURL(`${url}/me`, WAIT), offer.click()]);
      expect(await shownJson(page)).toEqual({ id: EMAIL, via: 'link' });

      const { credentials } = await cdp.send('WebAuthn.getCredentials', { authenticatorId });
      expect(credentials).toHaveLength(1);
      expect(credentials[0]?.isResidentCredential).toBe(true);
    }, 120_000);

    it('after the cookies are cleared, "Sign in with a passkey" signs in again and sends no message', async () => {
      const { url } = app!;
      const before = (await outbox(app!)).length;
      await context.clearCookies();
      // The virtual authenticator would answer the sign-in page's passkey autofill (a conditional
      // request) at once; without it, the button is what signs in, as the guide's step 3 says.
      await page.addInitScript('delete PublicKeyCredential.isConditionalMediationAvailable');

      await page.goto(`${url}/me`);
      await page.waitForURL(`${url}/auth/sign-in?returnTo=/me`, WAIT);
      const button = page.getByRole('button', { name: 'Sign in with a passkey' });
      await button.waitFor({ state: 'visible', ...WAIT });
      await Promise.all([page.waitForURL(`${url}/me`, WAIT), button.click()]);

      // The guide: `/me` then shows {"id":"you@example.com","via":"passkey"}. The dev inbox gets nothing.
      expect(await shownJson(page)).toEqual({ id: EMAIL, via: 'passkey' });
      expect(await outbox(app!)).toHaveLength(before);
    }, 120_000);

    it('/payments answers the passkey login, since that route accepts passkey logins by name', async () => {
      const answer = await page.goto(`${app!.url}/payments`);
      expect(answer?.status()).toBe(200);
      expect(await shownJson(page)).toEqual({ ok: true });
      expect(app!.output()).not.toMatch(/PassportOtplessWarning/);
    }, 60_000);
  });
}
