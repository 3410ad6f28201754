import { createHmac } from 'node:crypto';
import type { FlowStore } from '../stores/types.js';
import type { LocaleOptions } from '../web/messages/index.js';
import type { PasskeySettings } from './options.js';

/** What every ceremony step runs with: the checked settings, the store of challenges and grants, the words. */
export interface PasskeyContext {
  settings: PasskeySettings;
  /** The strategy's store: challenges and registration grants (short-lived). */
  store: FlowStore;
  /** The app's words for the refusals (the strategy's `pages`). */
  locale?: LocaleOptions | undefined;
  /** The path of the challenge cookies: the passkey routes' (`<base>/passkey`), where they are sent. */
  cookiePath: string;
  /** The key of user handles (from the strategy's secret). */
  handleKey: Buffer;
}

/**
 * The WebAuthn user handle of a user: a keyed digest of the profile id, the same for each of
 * the user's passkeys (so a device replaces its own), and naming no one (the authenticator keeps
 * it, and may show it to other sites' scripts never, but to its owner's tools).
 */
export function userHandleOf(ctx: PasskeyContext, userId: string): Uint8Array {
  return new Uint8Array(createHmac('sha256', ctx.handleKey).update(`passkey user handle\0${userId}`).digest());
}
