/**
 * Makes `instanceof` and `name` hold for a class of ours, also across two copies of the package
 * in one app (each with its own classes, as when one dependency requires the CJS build and the
 * app imports the ESM one). The way undici's errors do it: a `Symbol.for` brand per class on its
 * prototype, and a `Symbol.hasInstance` that looks for the brand instead of the prototype chain.
 *
 * @example
 * export class OtplessTimeoutError extends OtplessError { ... }
 * brandClass(OtplessTimeoutError, 'OtplessTimeoutError');
 */
export function brandClass(ctor: abstract new (...args: never[]) => object, name: string): void {
  const brand = Symbol.for(`passport-otpless.error.${name}`);
  // On the prototype, non-enumerable: shows up neither in JSON.stringify nor in util.inspect.
  Object.defineProperty(ctor.prototype, brand, { value: true });
  // `name` spelt out: a bundler may rename classes, and `console.error(err)` prints it.
  Object.defineProperty(ctor.prototype, 'name', { value: name, writable: true, configurable: true });
  Object.defineProperty(ctor, Symbol.hasInstance, {
    value(this: unknown, value: unknown): boolean {
      // An app's own subclass inherits this static: it keeps the ordinary prototype check.
      if (this !== ctor) return Function.prototype[Symbol.hasInstance].call(this, value);
      return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[brand] === true;
    },
  });
}
