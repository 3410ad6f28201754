import { setupOf } from '../login/compose.js';
import type { PasskeyCredential, PasskeyCredentialStore } from './credentials.js';

/** A user's passkeys, as the app lists them (no key material). */
export interface PasskeySummary {
  id: string;
  createdAt: Date;
  lastUsedAt?: Date;
  transports: string[];
}

/** What the app can do with a user's passkeys. */
export interface PasskeyManager {
  /** The passkeys of a user (the profile id `verify` was given), oldest first. */
  list(userId: string): Promise<PasskeySummary[]>;
  /** Removes one passkey of a user; false when the user has no passkey of that id. */
  remove(userId: string, credentialId: string): Promise<boolean>;
}

const MANAGERS = new WeakMap<object, PasskeyManager>();

/** Called by the mount with passkeys on: the strategy's passkeys are these credentials. */
export function registerManager(setup: object, credentials: PasskeyCredentialStore): void {
  MANAGERS.set(setup, managerOf(credentials));
}

/**
 * The passkeys of a strategy whose mount has `passkeys` on: list and remove a user's (for an
 * account page, or when an account is closed). Throws a TypeError when no mount of this strategy
 * has passkeys on.
 *
 * @example
 * app.get('/account/passkeys', async (req, res) => res.json(await passkeysOf(strategy).list(req.user.id)));
 * app.post('/account/passkeys/:id/delete', async (req, res) => {
 *   await passkeysOf(strategy).remove(req.user.id, req.params.id);
 *   res.redirect('/account');
 * });
 */
export function passkeysOf(strategy: object): PasskeyManager {
  const manager = MANAGERS.get(setupOf('passkeysOf()', strategy));
  if (!manager) {
    throw new TypeError(
      'passkeysOf(): no mount of this strategy has passkeys on: give magicLinkRoutes() (or otplessFastify(), OtplessModule) passkeys: true',
    );
  }
  return manager;
}

/** A manager over a credential store: only a user's own passkeys are listed or removed. */
export function managerOf(credentials: PasskeyCredentialStore): PasskeyManager {
  return {
    async list(userId) {
      return (await credentials.listByUser(userId)).map(summaryOf);
    },
    async remove(userId, credentialId) {
      const credential = await credentials.find(credentialId);
      if (!credential || credential.userId !== userId) return false;
      return credentials.remove(credentialId);
    },
  };
}

function summaryOf(c: PasskeyCredential): PasskeySummary {
  return {
    id: c.id,
    createdAt: new Date(c.createdAt),
    ...(c.lastUsedAt !== undefined ? { lastUsedAt: new Date(c.lastUsedAt) } : {}),
    transports: [...c.transports],
  };
}
