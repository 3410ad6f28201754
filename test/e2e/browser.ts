import { chromium } from 'playwright-core';
import type { Browser, BrowserContext, CDPSession, Page } from 'playwright-core';

/** Debian's Chromium (`apt-get install -y --no-install-recommends chromium`); CI installs it. */
export const CHROMIUM = '/usr/bin/chromium';

/**
 * Launches the machine's Chromium for the end-to-end tests. Without the background flags it
 * would try to reach update and sync hosts on a network that has none.
 */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--no-first-run',
      '--disable-sync',
    ],
  });
}

/**
 * A laptop's screen lock as the DevTools virtual authenticator plays it for `page`: a
 * user-verifying platform authenticator that keeps resident keys and says yes by itself.
 */
export async function addPlatformAuthenticator(
  context: BrowserContext,
  page: Page,
): Promise<{ cdp: CDPSession; authenticatorId: string }> {
  const cdp = await context.newCDPSession(page);
  await cdp.send('WebAuthn.enable');
  const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: {
      protocol: 'ctap2',
      transport: 'internal',
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  });
  return { cdp, authenticatorId };
}
