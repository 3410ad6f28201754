import type { EmulatorQuirks } from './types.js';
import { nearestName } from '../options.js';

/** Every quirk, by name (see EmulatorQuirks for what each does). */
export const QUIRK_NAMES = [
  'requestIdMismatch',
  'stripRedirectQuery',
  'rejectVerifyTokenOnEnrich',
  'legacyVerifyShape',
  'errorWith200',
  'noErrorCodeOn401',
  'separateRequestIds',
  'statusNotSuccess',
  'timestampAtAnswer',
  'omitVerifiedAt',
  'verifiedAtAtAnswer',
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
      const nearest = nearestName(name, QUIRK_NAMES);
      const hint = nearest === undefined ? '' : ` (did you mean ${nearest}?)`;
      throw new TypeError(
        `${where}: unknown quirk "${name.slice(0, 60)}"${hint}; the quirks are ${QUIRK_NAMES.join(', ')}`,
      );
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
