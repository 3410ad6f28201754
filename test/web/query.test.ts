// The callback's query reader against the WHATWG reader it stands in for: every query, plain or
// not, gives the values `URLSearchParams` gives, name by name (the plain path splits by hand).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { queryOf, queryValue } from '../../src/web/query.js';

function expected(url: string, name: string): string | string[] | undefined {
  const at = url.indexOf('?');
  const all = new URLSearchParams(at < 0 ? '' : url.slice(at + 1)).getAll(name);
  return all.length > 1 ? all : all[0];
}

const NAMES = ['code', 'flow', 'c', '', 'code=', 'cod'];

describe('queryOf / queryValue', () => {
  it.each([
    ['/cb?code=abc&flow=xyz', 'code', 'abc'],
    ['/cb?code=a&code=b', 'code', ['a', 'b']],
    ['/cb??code=a', 'code', 'a'],
    ['/cb?code', 'code', ''],
    ['/cb?code=a=b?c', 'code', 'a=b?c'],
    ['/cb?&&code=a&', 'code', 'a'],
    ['/cb?codex=a', 'code', undefined],
    ['/cb', 'code', undefined],
    ['/cb?%63ode=a', 'code', 'a'],
    ['/cb?code=a+b%20c', 'code', 'a b c'],
  ])('%s: %s is %j', (url, name, value) => {
    expect(queryValue(queryOf(url), name)).toEqual(value);
    expect(expected(url, name)).toEqual(value);
  });

  it('reads every query as URLSearchParams does', () => {
    const piece = fc.constantFrom(
      'code',
      'flow',
      'c',
      '=',
      '&',
      '?',
      '%',
      '%63',
      '+',
      'a',
      '-_.~',
      '#',
      'é',
      ' ',
      '%zz',
    );
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 12 }), fc.constantFrom(...NAMES), (pieces, name) => {
        const url = `/auth/callback?${pieces.join('')}`;
        expect(queryValue(queryOf(url), name)).toEqual(expected(url, name));
      }),
      { numRuns: 3000 },
    );
  });
});
