/**
 * The one format of a bad-option error, for every constructor and factory of the package:
 * `<owner>: options.<name> must be <expected>`. The value is never repeated: it may be a secret.
 */

/** A `TypeError` in the package's one format. */
export function optionError(owner: string, name: string, expected: string): TypeError {
  return new TypeError(`${owner}: options.${name} must be ${expected}`);
}

/** The error for an option the owner does not know (a misspelling, usually). */
export function unknownOptionError(owner: string, name: string, known: readonly string[]): TypeError {
  return new TypeError(`${owner}: options.${name.slice(0, 40)} is not an option; the options are ${known.join(', ')}`);
}

/**
 * The package writes acronyms in option names as words (`callbackUrl`, `clientId`, `authUrl`),
 * the way TypeScript style guides do; Passport strategies often write `callbackURL`, `clientID`.
 * Those spellings get an error that names the right one, instead of "callbackUrl is missing".
 */
const ACRONYM_SPELLINGS: Readonly<Record<string, string>> = {
  callbackURL: 'callbackUrl',
  clientID: 'clientId',
  authURL: 'authUrl',
  userAuthURL: 'userAuthUrl',
  loginURL: 'loginUrl',
  redirectURI: 'redirectUri',
};

/** The options object itself, or a `TypeError` saying what to pass. */
export function optionsObject<T extends object>(owner: string, options: unknown, expected: string): T {
  if (typeof options !== 'object' || options === null || Array.isArray(options)) {
    throw new TypeError(`${owner}: options must be ${expected}`);
  }
  for (const [spelt, name] of Object.entries(ACRONYM_SPELLINGS)) {
    if (Object.hasOwn(options, spelt)) {
      throw new TypeError(`${owner}: options.${spelt} is spelt ${name} here (acronyms are written as words)`);
    }
  }
  return options as T;
}

/** An optional whole number in [min, max]. */
export function intOption<T extends object>(
  owner: string,
  options: T,
  name: keyof T & string,
  min: number,
  max: number,
): number | undefined {
  const value: unknown = options[name];
  if (value === undefined) return undefined;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) {
    throw optionError(owner, name, `a whole number from ${min} to ${max}`);
  }
  return value;
}

/** An optional boolean. */
export function boolOption<T extends object>(owner: string, options: T, name: keyof T & string): boolean | undefined {
  const value: unknown = options[name];
  if (value !== undefined && typeof value !== 'boolean') throw optionError(owner, name, 'true or false');
  return value;
}

/** An optional function. */
export function functionOption<T extends object, F>(owner: string, options: T, name: keyof T & string): F | undefined {
  const value: unknown = options[name];
  if (value !== undefined && typeof value !== 'function') throw optionError(owner, name, 'a function');
  return value as F | undefined;
}

/** An optional value from a fixed list. */
export function oneOfOption<T extends object, V extends string>(
  owner: string,
  options: T,
  name: keyof T & string,
  allowed: readonly V[],
): V | undefined {
  const value: unknown = options[name];
  if (value === undefined) return undefined;
  if (!(allowed as readonly unknown[]).includes(value)) {
    throw optionError(owner, name, `one of ${allowed.map((v) => `'${v}'`).join(', ')}`);
  }
  return value as V;
}
