import { describe, expect, it } from 'vitest';
import { sameJson, shapeOfJson } from '../../src/session/jsonShape.js';

// sameJson() stands in for serializing a session's user and record on every guarded request: it
// may answer "different" for a value of the same JSON (that costs a serialization), never "same"
// for a value of other JSON.
const user = () => ({ id: 'alice@example.com', org: { id: 'acme', roles: ['a', 'b'] }, n: 1, ok: true, none: null });
const TEXT = JSON.stringify(user());

const withProto = (proto: object | null) => Object.assign(Object.create(proto) as object, user());

const OTHERS: Record<string, () => unknown> = {
  'a value changed': () => ({ ...user(), id: 'mallory@example.com' }),
  'a nested value changed': () => ({ ...user(), org: { id: 'other', roles: ['a', 'b'] } }),
  'an array item changed': () => ({ ...user(), org: { id: 'acme', roles: ['a', 'c'] } }),
  'an array item added': () => ({ ...user(), org: { id: 'acme', roles: ['a', 'b', 'c'] } }),
  'a member added': () => ({ ...user(), role: 'admin' }),
  'a member removed': () => {
    const { n: _n, ...rest } = user();
    return rest;
  },
  'the members reordered': () => {
    const { id, ...rest } = user();
    return { ...rest, id };
  },
  'a number as its string': () => ({ ...user(), n: '1' }),
  'an object for an array': () => ({ ...user(), org: { id: 'acme', roles: { 0: 'a', 1: 'b' } } }),
  'a toJSON of its own': () => ({ ...user(), toJSON: () => ({ id: 'mallory@example.com' }) }),
  'a member lent by a prototype instead of its own': () => {
    const { n: _n, ...rest } = user();
    return Object.assign(Object.create({ n: 1 }) as object, rest);
  },
  'a string for the object': () => TEXT,
  'no value': () => undefined,
};

const SAME_JSON_BUT_NOT_TOLD: Record<string, () => unknown> = {
  'a member JSON leaves out': () => ({ ...user(), extra: undefined }),
  'NaN where JSON has null': () => ({ ...user(), none: Number.NaN }),
  'a toJSON giving the same': () => ({ ...user(), toJSON: () => user() }),
  'a prototype lending a member JSON skips': () => withProto({ role: 'admin' }),
};

describe('sameJson()', () => {
  it('tells a value of the same JSON as the same, whatever object holds it', () => {
    const shape = shapeOfJson(TEXT);
    expect(sameJson(user(), shape)).toBe(true);
    expect(sameJson(JSON.parse(TEXT), shape)).toBe(true);
    expect(sameJson(withProto(null), shape)).toBe(true);
  });

  it.each(Object.keys(OTHERS))('%s: another JSON text, never the same', (how) => {
    const value = OTHERS[how]!();
    expect(String(JSON.stringify(value))).not.toBe(TEXT);
    expect(sameJson(value, shapeOfJson(TEXT))).toBe(false);
  });

  it.each(Object.keys(SAME_JSON_BUT_NOT_TOLD))('%s: the same JSON, read as different (serialized instead)', (how) => {
    const value = SAME_JSON_BUT_NOT_TOLD[how]!();
    expect(JSON.stringify(value)).toBe(TEXT);
    expect(sameJson(value, shapeOfJson(TEXT))).toBe(false);
  });

  it('no user: only no value is the same', () => {
    const shape = shapeOfJson(String(JSON.stringify(undefined)));
    expect(sameJson(undefined, shape)).toBe(true);
    expect(sameJson(null, shape)).toBe(false);
    expect(sameJson('undefined', shape)).toBe(false);
  });

  it('a string user (as @fastify/passport may keep it)', () => {
    const shape = shapeOfJson(JSON.stringify('alice'));
    expect(sameJson('alice', shape)).toBe(true);
    expect(sameJson('bob', shape)).toBe(false);
  });
});
