import { Module } from '@nestjs/common';
import type { DynamicModule } from '@nestjs/common';
import { APP_FILTER } from '@nestjs/core';
import { OtplessExceptionFilter } from './OtplessExceptionFilter.js';
import { OtplessMount } from './OtplessMount.js';
import { OTPLESS_MODULE_OPTIONS } from './options.js';
import type { OtplessModuleAsyncOptions, OtplessModuleOptions } from './options.js';

/**
 * The magic-link login in a Nest app, on @nestjs/platform-express or @nestjs/platform-fastify:
 * every route of the one mount (`GET /auth/sign-in`, `POST /auth/magic-link`, `GET /auth/waiting`,
 * `GET /auth/status`, `GET|POST /auth/callback`, beside `callbackUrl`'s path), the package's
 * pages, and `OtplessExceptionFilter` for the whole app. Protect routes with `LowRiskGuard` or
 * `IdentityGuard`. The app sets up its session and `passport.session()` as for Express or
 * Fastify; `passport` is the app's Passport with the strategy registered.
 *
 * @example
 * const passport = new Passport();
 * passport.use(strategy);
 * // app.module.ts
 * imports: [OtplessModule.forRoot({ strategy, passport, successRedirect: '/me' })]
 * // main.ts
 * app.use(session({ ... }), passport.session());
 */
export class OtplessModule {
  /** The module with its options given as they are. */
  static forRoot(options: OtplessModuleOptions): DynamicModule {
    return OtplessModule.forRootAsync({ useFactory: () => options });
  }

  /**
   * The module with its options built by a factory, for a strategy whose verify function uses
   * the app's own providers (`inject`, from `imports`).
   *
   * @example
   * OtplessModule.forRootAsync({
   *   imports: [UsersModule],
   *   inject: [UsersService],
   *   useFactory: (users: UsersService) => ({ strategy: makeStrategy(users), passport, successRedirect: '/me' }),
   * })
   */
  static forRootAsync(options: OtplessModuleAsyncOptions): DynamicModule {
    return {
      module: OtplessModule,
      imports: options.imports ?? [],
      providers: [
        {
          provide: OTPLESS_MODULE_OPTIONS,
          useFactory: options.useFactory as (...deps: unknown[]) => OtplessModuleOptions,
          inject: options.inject ?? [],
        },
        OtplessMount,
        {
          provide: APP_FILTER,
          useFactory: (mount: OtplessMount) => new OtplessExceptionFilter(mount),
          inject: [OtplessMount],
        },
      ],
      exports: [OtplessMount],
    };
  }
}

Module({})(OtplessModule);
