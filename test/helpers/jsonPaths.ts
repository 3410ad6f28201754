/** Any JSON value, as the fuzz tests build and edit them. */
export type Json = unknown;
/** Keys from the root of a JSON value to one member or element. */
export type Path = (string | number)[];

/** Every path inside a JSON value (objects and arrays), the root excluded. */
export function paths(value: Json, prefix: Path = []): Path[] {
  if (typeof value !== 'object' || value === null) return [];
  const entries: [string | number, Json][] = Array.isArray(value) ? value.map((v, i) => [i, v]) : Object.entries(value);
  return entries.flatMap(([k, v]) => [[...prefix, k], ...paths(v, [...prefix, k])]);
}

/** 'null', 'array', or the `typeof` of the value. */
export function kind(v: Json): string {
  return v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v;
}

/** A copy of `root` with the value at `path` replaced, or removed when `value` is undefined. */
export function setAt(root: Json, path: Path, value: Json | undefined): Json {
  if (path.length === 0) return value;
  const out = structuredClone(root);
  let o = out as Record<string | number, Json>;
  for (const k of path.slice(0, -1)) o = o[k] as Record<string | number, Json>;
  const last = path.at(-1) as string | number;
  if (value === undefined) {
    if (Array.isArray(o)) o.splice(Number(last), 1);
    else delete o[last];
  } else o[last] = value;
  return out;
}

/** The value at `path`. */
export function getAt(root: Json, path: Path): Json {
  return path.reduce<Json>((o, k) => (o as Record<string | number, Json>)[k], root);
}
