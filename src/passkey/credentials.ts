import type { IdentityType } from '../wire/types.js';

/**
 * One passkey of one user, as the package keeps it: the public key and what is needed to sign
 * the person in again without a message. No private key ever leaves the person's device.
 */
export interface PasskeyCredential {
  /** The credential id the browser gives, base64url. */
  id: string;
  /** The profile id of the user (`MagicLinkProfile.id`) whose verified login registered it. */
  userId: string;
  /** The WebAuthn user handle, base64url: a keyed digest of `userId`, so it names no one. */
  userHandle: string;
  /** The COSE public key, base64url. */
  publicKey: string;
  /** The authenticator's signature counter (many synced passkeys keep it at 0). */
  counter: number;
  /** How the browser may reach the authenticator ('internal', 'hybrid', 'usb' ...). */
  transports: string[];
  /** The identities verified by the link login that registered it: a passkey login verifies these. */
  identities: Array<{ type: IdentityType; value: string }>;
  /** Epoch ms it was registered. */
  createdAt: number;
  /** Epoch ms of its last sign-in, when there was one. */
  lastUsedAt?: number;
}

/**
 * Where passkeys live: the package's `store` by default (`StoreCredentials`), or the app's own
 * database. Five calls; each may return a promise. Keep these rows backed up with the users:
 * a lost row is a passkey that no longer signs anyone in (the person asks for a link again).
 *
 * @example
 * const credentials: PasskeyCredentialStore = {
 *   find: (id) => db.passkeys.findOne({ id }),
 *   listByUser: (userId) => db.passkeys.find({ userId }),
 *   save: (credential) => db.passkeys.insert(credential),
 *   updateCounter: (id, counter, usedAt) => db.passkeys.update({ id }, { counter, lastUsedAt: usedAt }),
 *   remove: (id) => db.passkeys.delete({ id }),
 * };
 * app.use(magicLinkRoutes(strategy, { passport, passkeys: { credentials } }));
 */
export interface PasskeyCredentialStore {
  /** The credential with this id, or `undefined`. */
  find(id: string): Promise<PasskeyCredential | undefined>;
  /** Every credential of a user (the profile id), oldest first. */
  listByUser(userId: string): Promise<PasskeyCredential[]>;
  /** Saves a new credential; an id already saved is refused (false or a throw). */
  save(credential: PasskeyCredential): Promise<boolean>;
  /** Records a sign-in: the new counter and when. */
  updateCounter(id: string, counter: number, usedAt: number): Promise<void>;
  /** Removes a credential; true when there was one. */
  remove(id: string): Promise<boolean>;
}

/** True for an object with the five calls of a `PasskeyCredentialStore`. */
export function isCredentialStore(value: unknown): value is PasskeyCredentialStore {
  if (typeof value !== 'object' || value === null) return false;
  const store = value as Record<string, unknown>;
  return ['find', 'listByUser', 'save', 'updateCounter', 'remove'].every((name) => typeof store[name] === 'function');
}

/** A credential as read back from any store: the fields this package relies on, checked. */
export function isCredential(value: unknown): value is PasskeyCredential {
  if (typeof value !== 'object' || value === null) return false;
  const c = value as Partial<PasskeyCredential>;
  return (
    typeof c.id === 'string' &&
    typeof c.userId === 'string' &&
    typeof c.userHandle === 'string' &&
    typeof c.publicKey === 'string' &&
    typeof c.counter === 'number' &&
    Number.isInteger(c.counter) &&
    c.counter >= 0 &&
    Array.isArray(c.transports) &&
    Array.isArray(c.identities)
  );
}
