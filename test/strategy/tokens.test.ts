/**
 * The age of a frontend token rests only on a time that dates the sign-in: `verifiedAt`, or the
 * answer's `timestamp` when the app knows it stamps the sign-in. Read strictly (src/wire/time.ts).
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { authenticatedAt } from '../../src/strategy/tokens.js';
import { warnOnce } from '../../src/strategy/warn.js';
import type { TokenValidationResult } from '../../src/wire/types.js';

const base = (identities: TokenValidationResult['identities'], timestamp?: string): TokenValidationResult => ({
  token: 't',
  userId: 'u',
  identities,
  ...(timestamp === undefined ? {} : { timestamp }),
});
const email = { identityType: 'EMAIL' as const, identityValue: 'ada@example.com', verified: true };

afterEach(() => {
  vi.restoreAllMocks();
});

describe('authenticatedAt', () => {
  it('the latest verifiedAt, whatever the stamp says', () => {
    const answer = base(
      [
        { ...email, verifiedAt: '2026-11-22T10:00:00Z' },
        { ...email, verifiedAt: '2026-11-22T10:05:00Z' },
      ],
      '2030-01-01T00:00:00Z',
    );
    expect(authenticatedAt(answer)).toBe(Date.UTC(2026, 10, 22, 10, 5));
  });

  it('a zone-less verifiedAt dates nothing (it would be local time of this server)', () => {
    expect(authenticatedAt(base([{ ...email, verifiedAt: '2026-11-22T10:00:00' }]))).toBeUndefined();
  });

  it('only a stamp of unknown meaning: undefined, and the operator is warned with OTPLESS_TOKEN_TIME_UNKNOWN', () => {
    const warn = vi.spyOn(process, 'emitWarning').mockImplementation(() => undefined);
    const answer = base([email], '2026-11-22T10:00:00Z');
    expect(authenticatedAt(answer)).toBeUndefined();
    expect(authenticatedAt(answer, 'answer')).toBeUndefined();
    // Once per process: emitted now, or by an earlier file sharing this process; either way the
    // code is spent, and never emitted twice.
    expect(warn.mock.calls.length).toBeLessThanOrEqual(1);
    if (warn.mock.calls.length === 1) {
      expect(warn.mock.calls[0]![1]).toMatchObject({
        type: 'PassportOtplessWarning',
        code: 'OTPLESS_TOKEN_TIME_UNKNOWN',
      });
    }
    expect(warnOnce('OTPLESS_TOKEN_TIME_UNKNOWN', 'again')).toBe(false);
  });

  it("a stamp known to date the sign-in ('signIn', as otpless-check finds it) counts", () => {
    expect(authenticatedAt(base([email], '2026-11-22T10:00:00Z'), 'signIn')).toBe(Date.UTC(2026, 10, 22, 10));
    expect(authenticatedAt(base([email], '2026-11-22T10:00:00'), 'signIn')).toBeUndefined();
  });
});
