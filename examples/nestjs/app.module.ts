import { Module } from '@nestjs/common';
import type { DynamicModule } from '@nestjs/common';
import type { Passport } from 'passport';
import { MagicLinkStrategy } from 'passport-otpless';
import { OtplessModule } from 'passport-otpless/nest';
import { AccountController } from './account.controller.js';
import type { NestExampleConfig } from './config.js';
import { MemoryUserDirectory } from './users.js';

@Module({})
export class AppModule {
  /** The login (every route under /auth, its pages, the error filter) and the app's own routes. */
  static register(config: NestExampleConfig, passport: InstanceType<typeof Passport>): DynamicModule {
    const users = config.users ?? new MemoryUserDirectory();
    const strategy = new MagicLinkStrategy(
      { ...config.otpless, callbackUrl: config.callbackUrl, enrich: ['secureInfo'], ...config.strategy },
      (profile) => users.signIn(profile), // a user signs in; null refuses the login (401)
    );
    passport.use(strategy);
    return {
      module: AppModule,
      imports: [
        OtplessModule.forRoot({
          strategy,
          passport,
          successRedirect: '/me',
          // Passkeys are one option of the module, as of `magicLinkRoutes()` (a callback URL on a domain).
          ...(config.passkeys ? { passkeys: config.passkeys } : {}),
        }),
      ],
      controllers: [AccountController],
    };
  }
}
