// Mutation survivors of isSafeLocalPath's first layer (docs/testing.md), seen where an app meets
// it: a guard's `loginUrl` is refused when the route is set up. The check has two layers, string
// rules then a URL parse; the parse only confirms (no input the rules pass fails it, checked by
// a fuzz of 3 million paths), so each rule is tested here with an input only that rule refuses.
import { describe, expect, it } from 'vitest';
import { requireLowRisk } from '../../src/index.js';

const setUp = (loginUrl: string) => () => requireLowRisk({ loginUrl });

describe('a guard loginUrl must be a plain absolute path on this site', () => {
  it.each([
    // Not starting with one slash: relative to whatever page the visitor is on, or another host.
    ['the empty string', ''],
    ['a relative path', 'account'],
    ['a relative path with a query', 'login?next=/'],
    ['a protocol-relative URL whose host parses as the checker’s own base', '//same-site.invalid/x'],
    // Characters browsers normalise or drop, and that no Location header may carry.
    ['a backslash', '/a\\b'],
    ['a header break', '/next\r\nSet-Cookie: a=b'],
    ['a NUL', '/a\u0000'],
    ['a DEL', '/a\u007f'],
    // Dot segments, even ones that resolve harmlessly: the rule is "none", not "none that escape".
    ['a .. segment', '/a/../b'],
    ['a . segment', '/./account'],
    ['an encoded .. segment', '/%2e%2e/account'],
    ['a trailing . segment', '/account/.'],
  ])('%s (%j) is refused at setup', (_name, loginUrl) => {
    expect(setUp(loginUrl)).toThrow(/options\.loginUrl/);
  });

  it.each(['/archive/v2.', '/a..', '/files/x.%2e', '/login', '/login?next=/a/../b'])(
    'a segment that only ends in dots is no dot segment: %j is accepted',
    (loginUrl) => {
      expect(setUp(loginUrl)).not.toThrow();
    },
  );
});
