/**
 * A value as JSON gave it back, kept to tell later whether another value would serialize to the
 * same JSON text, without serializing it: a comparison by value, member by member, that never
 * depends on which object holds the members.
 */
export type JsonShape = string | number | boolean | null | undefined | JsonShape[] | Members;

/** An object's members in JSON's order (its own enumerable keys, as `for...in` lists them first). */
class Members {
  constructor(
    readonly keys: readonly string[],
    readonly values: readonly JsonShape[],
  ) {}
}

/**
 * The shape of `text`, a JSON text (`JSON.stringify`'s answer), or of no value when there is none
 * (`undefined`, which `String(JSON.stringify(undefined))` writes as 'undefined').
 */
export function shapeOfJson(text: string | undefined): JsonShape {
  return text === undefined || text === 'undefined' ? undefined : shapeOf(JSON.parse(text) as unknown);
}

function shapeOf(value: unknown): JsonShape {
  if (Array.isArray(value)) return value.map(shapeOf);
  if (typeof value !== 'object' || value === null) return value as JsonShape;
  const keys = Object.keys(value);
  return new Members(
    keys,
    keys.map((key) => shapeOf((value as Record<string, unknown>)[key])),
  );
}

/**
 * True only when `value` serializes to the JSON text `shape` came from. Anything JSON would
 * treat in a way a member-by-member reading cannot see (a `toJSON`, a prototype other than
 * Object's or none, a member JSON leaves out such as `undefined`, a number JSON writes as
 * `null`) reads as different: the caller then serializes it, so a false "different" costs time,
 * never a wrong answer.
 */
export function sameJson(value: unknown, shape: JsonShape): boolean {
  if (typeof shape !== 'object' || shape === null) return value === shape;
  if (typeof value !== 'object' || value === null || 'toJSON' in value) return false;
  if (shape instanceof Members) {
    if (Array.isArray(value)) return false;
    const proto: unknown = Object.getPrototypeOf(value);
    // Another prototype may lend enumerable members that `for...in` lists and JSON does not.
    if (proto !== Object.prototype && proto !== null) return false;
    const { keys, values } = shape;
    let i = 0;
    for (const key in value) {
      if (keys[i] !== key || !sameJson((value as Record<string, unknown>)[key], values[i])) return false;
      i++;
    }
    return i === keys.length;
  }
  if (!Array.isArray(value) || value.length !== shape.length) return false;
  for (let i = 0; i < shape.length; i++) if (!sameJson(value[i], shape[i])) return false;
  return true;
}
