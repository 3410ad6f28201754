import { chromium } from 'playwright-core';
import type { Browser } from 'playwright-core';

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
