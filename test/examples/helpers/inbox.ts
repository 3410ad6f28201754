import type { Emulator } from '../../../src/emulator/index.js';
import type { Browser, Page } from './browser.js';

/** The newest link the emulator delivered to an e-mail address or a mobile number (any format). */
export function linkTo(emulator: Emulator, contact: string): string {
  const wanted = contact.includes('@') ? contact.trim().toLowerCase() : contact.replace(/\D/g, '');
  const entry = emulator
    .outbox()
    .reverse()
    .find((e) => e.to === wanted);
  if (!entry) throw new Error(`no link was delivered to ${contact}`);
  return entry.link;
}

/**
 * Opens a delivered link in `browser` like a person clicking it in the dev inbox (as a given
 * risk scenario): the emulator redirects to the app's callback, which the browser then loads.
 */
export async function openLink(browser: Browser, link: string, risk?: string): Promise<Page> {
  const url = new URL(link);
  if (risk) url.searchParams.set('risk', risk);
  const redirect = await browser.get(url.toString());
  if (redirect.status !== 302 || !redirect.location)
    throw new Error(`the link answered ${redirect.status}, not a redirect`);
  return browser.get(redirect.location);
}
