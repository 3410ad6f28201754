import { Strategy } from 'passport-strategy';

/**
 * passport-strategy's `Strategy`, the base class Passport's own strategies extend, so that
 * `strategy instanceof Strategy` holds for ours too. Typed as a plain base on purpose:
 * `@types/passport-strategy` would make every app install Express's and Passport's types
 * to compile against our declarations. `MagicLinkStrategy` declares the members itself.
 *
 * @internal
 */
export const PassportStrategyBase: new () => object = Strategy;
