import type { MagicLinkStrategyOptions } from 'passport-otpless';
import type { UserDirectory } from './users.js';

/** What the app needs to start: the OTPless client, where the links come back, the session keys. */
export interface NestExampleConfig {
  otpless: Pick<MagicLinkStrategyOptions, 'clientId' | 'clientSecret' | 'authUrl' | 'userAuthUrl'>;
  /** The absolute URL of `GET /auth/callback`, as the service redirects to it. */
  callbackUrl: string;
  /** The session's signing keys (newest first). */
  sessionKeys: string[];
  /** More strategy options (`confirm`, `crossDevice` ...), beside the client and the callback URL. */
  strategy?: Partial<Pick<MagicLinkStrategyOptions, 'confirm' | 'crossDevice'>>;
  /** The module's `passkeys` option: a passkey offered after a link login (docs/passkeys.md). Off unless given. */
  passkeys?: true;
  /** Who may sign in; a `MemoryUserDirectory` unless given. */
  users?: UserDirectory;
}
