import { Inject, Injectable } from '@nestjs/common';
import type { OnApplicationShutdown } from '@nestjs/common';
import { PassportStrategy } from '@nestjs/passport';
import { MagicLinkStrategy } from 'passport-otpless';
import type { MagicLinkProfile } from 'passport-otpless';
import { CONFIG, USERS } from './config.js';
import type { NestExampleConfig } from './config.js';
import type { AppUser, UserDirectory } from './users.js';

/**
 * The passport-otpless strategy as a Nest provider. The mixin passes our constructor the
 * options and a verify callback that calls `validate`, and registers the strategy with
 * Passport under 'magic-link' (the name `AuthGuard('magic-link')` uses).
 */
@Injectable()
export class MagicLinkAuthStrategy
  extends PassportStrategy(MagicLinkStrategy, 'magic-link')
  implements OnApplicationShutdown
{
  constructor(
    @Inject(CONFIG) config: NestExampleConfig,
    @Inject(USERS) private readonly users: UserDirectory,
  ) {
    super({ ...config.otpless, callbackUrl: config.callbackUrl, enrich: ['secureInfo'], ...config.strategy });
  }

  /** A user logs in; `null` refuses the login (401); a throw is an error (Nest's exception filters). */
  validate(profile: MagicLinkProfile): Promise<AppUser | null> {
    return this.users.signIn(profile);
  }

  /** The client keeps connections to the service open: close them with the app. */
  onApplicationShutdown(): Promise<void> {
    return this.client.close();
  }
}
