/**
 * The one format of a bad-option error, for every constructor and factory of the package:
 * `<owner>: options.<name> must be <expected>`. The value is never repeated: it may be a secret.
 */

/** A `TypeError` in the package's one format. */
export function optionError(owner: string, name: string, expected: string): TypeError {
  return new TypeError(`${owner}: options.${name} must be ${expected}`);
}

/**
 * The error for an option the owner does not know (a misspelling, usually): it names the
 * nearest known option, then all of them. `name` may carry a path (`limits.perIp`); only its
 * last part is compared.
 */
export function unknownOptionError(owner: string, name: string, known: readonly string[]): TypeError {
  const dot = name.lastIndexOf('.');
  const nearest = nearestName(name.slice(dot + 1), known);
  const hint = nearest === undefined ? '' : ` (did you mean ${name.slice(0, dot + 1)}${nearest}?)`;
  return new TypeError(
    `${owner}: options.${name.slice(0, 60)} is not an option${hint}; the options are ${known.join(', ')}`,
  );
}

/**
 * Throws `unknownOptionError` for the first own key of `options` that is not in `known`: a typo
 * must not pass in silence (`crossdevice: 'refuse'` would leave the handoff on). `path` prefixes
 * nested options (`'limits.'`).
 */
export function refuseUnknownOptions(owner: string, options: object, known: readonly string[], path = ''): void {
  for (const key of Object.keys(options)) {
    if (!known.includes(key)) throw unknownOptionError(owner, `${path}${key}`, known);
  }
}

/**
 * The known name closest to `name`: the same letters in another case, a longer or shorter form
 * of it, or within a third of its length in edits (insert, delete, replace, swap of two
 * neighbours). `undefined` when none is close.
 */
export function nearestName(name: string, known: readonly string[]): string | undefined {
  const wanted = name.toLowerCase();
  let best: string | undefined;
  let bestDistance = Math.max(2, Math.floor(wanted.length / 3)) + 1;
  for (const candidate of known) {
    const lower = candidate.toLowerCase();
    // A longer or shorter form of the same word (`enrichment` for `enrich`) is close too.
    const prefix = Math.min(lower.length, wanted.length) >= 4 && (lower.startsWith(wanted) || wanted.startsWith(lower));
    const distance = prefix ? 1 : editDistance(wanted, lower);
    if (distance < bestDistance) {
      best = candidate;
      bestDistance = distance;
    }
  }
  return best;
}

/** Optimal string alignment distance; names are short, so the table is small. */
function editDistance(a: string, b: string): number {
  if (a.length > 64 || b.length > 64) return a === b ? 0 : Infinity;
  const rows: number[][] = [];
  for (let i = 0; i <= a.length; i++) {
    const row: number[] = [i];
    for (let j = 1; j <= b.length; j++) {
      if (i === 0) {
        row.push(j);
        continue;
      }
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let d = Math.min(rows[i - 1]![j]! + 1, row[j - 1]! + 1, rows[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d = Math.min(d, rows[i - 2]![j - 2]! + 1);
      row.push(d);
    }
    rows.push(row);
  }
  return rows[a.length]![b.length]!;
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

/**
 * The own enumerable keys of `options` in an object with no prototype. An entry another module
 * put on `Object.prototype` (prototype pollution) is then never read as an option: a polluted
 * `crossDevice: 'accept'` or `limits: false` must not turn a defence off.
 *
 * @example
 * const own = ownOptions(options); // own.limits is undefined unless options has it itself
 */
export function ownOptions<T extends object>(options: T): T {
  const own = Object.create(null) as Record<string, unknown>;
  for (const key of Object.keys(options)) own[key] = (options as Record<string, unknown>)[key];
  return own as T;
}

/** The value of an option only when `options` has it itself (see `ownOptions`). */
export function ownOption(options: object, name: string): unknown {
  return Object.hasOwn(options, name) ? (options as Record<string, unknown>)[name] : undefined;
}

/**
 * The options object as its own keys only (`ownOptions`: read the returned object, not the
 * one given), or a `TypeError` saying what to pass.
 */
export function optionsObject<T extends object>(owner: string, options: unknown, expected: string): T {
  if (typeof options !== 'object' || options === null || Array.isArray(options)) {
    throw new TypeError(`${owner}: options must be ${expected}`);
  }
  for (const [spelt, name] of Object.entries(ACRONYM_SPELLINGS)) {
    if (Object.hasOwn(options, spelt)) {
      throw new TypeError(`${owner}: options.${spelt} is spelt ${name} here (acronyms are written as words)`);
    }
  }
  return ownOptions(options as T);
}
