import type { EmulatorQuirks } from './types.js';

/** Every quirk, by name (see EmulatorQuirks for what each does). */
export const QUIRK_NAMES = [
  'requestIdMismatch',
  'stripRedirectQuery',
  'rejectVerifyTokenOnEnrich',
  'legacyVerifyShape',
  'errorWith200',
  'noErrorCodeOn401',
  'separateRequestIds',
] as const satisfies ReadonlyArray<keyof EmulatorQuirks>;

export type QuirkName = (typeof QUIRK_NAMES)[number];

/** Quirks with every member present (false when off). */
export type ResolvedQuirks = Record<QuirkName, boolean>;

/**
 * Checks quirks and fills in false for the missing ones. Throws a TypeError naming an unknown
 * quirk or a value that is not a boolean; `where` names the caller in the message.
 */
export function resolveQuirks(quirks: EmulatorQuirks | undefined, where: string): ResolvedQuirks {
  if (quirks !== undefined && (typeof quirks !== 'object' || quirks === null || Array.isArray(quirks))) {
    throw new TypeError(`${where}: quirks must be an object such as { errorWith200: true }`);
  }
  const given = (quirks ?? {}) as Record<string, unknown>;
  for (const [name, value] of Object.entries(given)) {
    if (!(QUIRK_NAMES as readonly string[]).includes(name)) {
      throw new TypeError(`${where}: unknown quirk "${name}"; the quirks are ${QUIRK_NAMES.join(', ')}`);
    }
    if (value !== undefined && typeof value !== 'boolean') {
      throw new TypeError(`${where}: quirk ${name} must be true or false, got ${String(value)}`);
    }
  }
  return Object.fromEntries(QUIRK_NAMES.map((name) => [name, given[name] === true])) as ResolvedQuirks;
}

/** The quirks that are on, as an EmulatorQuirks object. */
export function activeQuirks(quirks: ResolvedQuirks): EmulatorQuirks {
  return Object.fromEntries(QUIRK_NAMES.filter((name) => quirks[name]).map((name) => [name, true]));
}
