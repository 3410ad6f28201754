import type { InjectionToken, ModuleMetadata, OptionalFactoryDependency } from '@nestjs/common';
import type { MagicLinkRoutesOptions } from '../routes/mount.js';

/**
 * Options of `OtplessModule.forRoot()`: the strategy, the app's Passport, and the one mount's
 * own options (`successRedirect`, `failureRedirect`, `paths`, `pages`, `contacts`,
 * `channelChoice`, `defaultCountry`), as `magicLinkRoutes()` takes them.
 */
export interface OtplessModuleOptions extends MagicLinkRoutesOptions {
  /** The `MagicLinkStrategy` whose routes the module mounts; registered with `passport` under its name. */
  strategy: object;
}

/** Options of `OtplessModule.forRootAsync()`: the module's options from a factory, with injected providers. */
export interface OtplessModuleAsyncOptions {
  /** Modules whose providers the factory injects. */
  imports?: ModuleMetadata['imports'];
  /** The providers handed to `useFactory`, in order. */
  inject?: Array<InjectionToken | OptionalFactoryDependency>;
  /** Builds the options (the strategy can then call the app's own services in its verify function). */
  useFactory(...deps: never[]): OtplessModuleOptions | Promise<OtplessModuleOptions>;
}

/** The injection token of the module's options. */
export const OTPLESS_MODULE_OPTIONS = Symbol.for('passport-otpless.nest.options');
