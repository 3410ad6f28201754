import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodeBody } from '../../src/client/decode.js';
import { isOtplessError } from '../../src/index.js';
import { OtplessResponseError } from '../../src/client/index.js';
import type { Mismatch } from '../../src/client/shapes/check.js';
import {
  codeVerificationResult,
  secureInfoResult,
  sendMagicLinkResponse,
  sessionDetails,
  tokenValidationResult,
  userInfo,
} from '../../src/client/shapes/index.js';
import { getAt, kind, paths, setAt } from '../helpers/jsonPaths.js';
import type { Json, Path } from '../helpers/jsonPaths.js';
import {
  copy,
  secureInfoOk,
  sendMagicLinkOk,
  sessionDetailsOk,
  userInfoOk,
  validateTokenOk,
  verifyCodeOk,
} from './helpers/fixtures.js';
import { fuzzParams, fuzzRuns } from '../helpers/fuzzRuns.js';

/** Runs per property: 1,000 under test:slow, 100 in npm test; FUZZ_RUNS=100000 for a long hunt. */
const RUNS = fuzzRuns(1_000);

interface Operation {
  name: string;
  shape: (value: unknown) => Mismatch | undefined;
  valid: Json;
  /** What the login relies on, checked independently of the guards on every accepted value. */
  critical: (v: any) => boolean; // eslint-disable-line @typescript-eslint/no-explicit-any
}

const isStr = (v: unknown) => typeof v === 'string';
const isObjectLike = (v: unknown): v is Record<string | number, Json> => typeof v === 'object' && v !== null;
const identitiesOk = (ids: unknown) =>
  Array.isArray(ids) &&
  ids.length > 0 &&
  ids.every((i) => (i?.identityType === 'MOBILE' || i?.identityType === 'EMAIL') && isStr(i.identityValue));

const OPERATIONS: Operation[] = [
  {
    name: 'sendMagicLink',
    shape: sendMagicLinkResponse,
    valid: sendMagicLinkOk,
    critical: (v) =>
      Array.isArray(v.requestIds) &&
      v.requestIds.length > 0 &&
      v.requestIds.every((e: unknown) => isStr((e as { value?: unknown } | null)?.value)),
  },
  {
    name: 'verifyCode',
    shape: codeVerificationResult,
    valid: verifyCodeOk,
    critical: (v) => isStr(v.requestId) && isStr(v.userDetails?.token) && identitiesOk(v.userDetails?.identities),
  },
  { name: 'userInfo', shape: userInfo, valid: userInfoOk, critical: (v) => isStr(v.email) || isStr(v.phone_number) },
  {
    name: 'validateToken',
    shape: tokenValidationResult,
    valid: validateTokenOk,
    critical: (v) =>
      isStr(v.token) &&
      isStr(v.userId) &&
      identitiesOk(v.identities) &&
      (v.secureInfo === undefined || typeof v.secureInfo === 'object'),
  },
  {
    name: 'secureInfo',
    shape: secureInfoResult,
    valid: secureInfoOk,
    critical: (v) => typeof v.secure_info === 'object' && v.secure_info !== null && !Array.isArray(v.secure_info),
  },
  {
    name: 'sessionDetails',
    shape: sessionDetails,
    valid: sessionDetailsOk,
    critical: (v) =>
      isStr(v.userId) &&
      isStr(v.sessionToken) &&
      identitiesOk(v.identities) &&
      (v.startedAt === undefined || typeof v.startedAt === 'number'),
  },
];

/** Decodes; returns the value, or 'BAD' for BAD_RESPONSE. Anything else thrown fails the test. */
function outcome(op: Operation, text: string): Json | 'BAD' {
  try {
    return decodeBody('verifyCode', 200, text, op.shape);
  } catch (err) {
    if (err instanceof OtplessResponseError && isOtplessError(err, 'BAD_RESPONSE')) return 'BAD';
    // A `status` that is not the string SUCCESS is refused too, as a state other than SUCCESS.
    if (isOtplessError(err, 'NOT_SUCCESS')) return 'BAD';
    throw err;
  }
}

// Drawn by name, so a failing case prints as a name rather than as source code.
const operation = fc.constantFrom(...OPERATIONS.map((op) => op.name)).map(
  (name) => OPERATIONS.find((op) => op.name === name) as Operation,
  (op) => (op as Operation).name,
);
const jsonValue = fc.jsonValue({ maxDepth: 3 });

/** A valid answer, then 1-4 random edits: delete, replace with any JSON, add an unknown field. */
const mutated = operation.chain((op) =>
  fc
    .array(
      fc.record({
        action: fc.constantFrom('delete', 'replace', 'add'),
        pick: fc.nat(),
        value: jsonValue,
        key: fc.string({ maxLength: 8 }),
      }),
      { minLength: 1, maxLength: 4 },
    )
    .map((edits) => {
      let value = copy(op.valid);
      for (const e of edits) {
        const all = paths(value);
        if (all.length === 0) break;
        const path = all[e.pick % all.length] as Path;
        if (e.action === 'delete') value = setAt(value, path, undefined);
        else if (e.action === 'replace') value = setAt(value, path, e.value);
        else if (kind(getAt(value, path)) === 'object') value = setAt(value, [...path, `x_${e.key}`], e.value);
      }
      return { op, value };
    }),
);

describe(`shape guards under fuzzing (${RUNS} runs per property)`, () => {
  it('any mutation of a valid answer: a result the login can rely on, or BAD_RESPONSE, nothing else', () => {
    fc.assert(
      fc.property(mutated, ({ op, value }) => {
        const result = outcome(op, JSON.stringify(value));
        if (result !== 'BAD') expect(op.critical(result)).toBe(true);
      }),
      fuzzParams(RUNS),
    );
  });

  it('any JSON at all: a result or BAD_RESPONSE', () => {
    fc.assert(
      fc.property(operation, fc.jsonValue({ maxDepth: 6 }), (op, value) => {
        const result = outcome(op, JSON.stringify(value) ?? '');
        if (result !== 'BAD') expect(op.critical(result)).toBe(true);
      }),
      fuzzParams(RUNS),
    );
  });

  it('a declared field given a value of another JSON kind: BAD_RESPONSE, or that value is gone from the result', () => {
    const replacement = fc.oneof(
      fc.string(),
      fc.double({ noNaN: true, noDefaultInfinity: true }),
      fc.boolean(),
      fc.dictionary(fc.string({ maxLength: 4 }), fc.integer(), { maxKeys: 2 }),
      fc.array(fc.integer(), { maxLength: 2 }),
    );
    fc.assert(
      fc.property(operation, fc.nat(), replacement, (op, pick, value) => {
        const all = paths(op.valid);
        const path = all[pick % all.length] as Path;
        fc.pre(kind(getAt(op.valid, path)) !== kind(value));
        const result = outcome(op, JSON.stringify(setAt(op.valid, path, value)));
        if (result === 'BAD') return;
        // Tolerated: the member, or the optional member holding it, was dropped; never kept
        // with the wrong kind, and never at the cost of what the login relies on.
        expect(path.reduce<Json>((o, k) => (isObjectLike(o) ? o[k] : undefined), result)).toBeUndefined();
        expect(op.critical(result)).toBe(true);
      }),
      fuzzParams(RUNS),
    );
  });

  it('unknown fields added anywhere are kept and do not break the result', () => {
    fc.assert(
      fc.property(operation, fc.nat(), fc.string({ minLength: 1, maxLength: 8 }), jsonValue, (op, pick, key, value) => {
        const objects = [[], ...paths(op.valid)].filter((p) => kind(getAt(op.valid, p)) === 'object');
        const path = [...(objects[pick % objects.length] as Path), `zz_${key}`];
        const result = outcome(op, JSON.stringify(setAt(op.valid, path, value)));
        expect(result).not.toBe('BAD');
        expect(getAt(result, path)).toEqual(JSON.parse(JSON.stringify(value)));
      }),
      fuzzParams(RUNS),
    );
  });

  it('a truncated or corrupted body is BAD_RESPONSE', () => {
    fc.assert(
      fc.property(operation, fc.nat(), (op, cut) => {
        const text = JSON.stringify(op.valid);
        expect(outcome(op, text.slice(0, cut % text.length))).toBe('BAD');
      }),
      fuzzParams(RUNS),
    );
    fc.assert(
      fc.property(operation, fc.string(), (op, text) => {
        const result = outcome(op, text);
        if (result !== 'BAD') expect(op.critical(result)).toBe(true);
      }),
      fuzzParams(RUNS),
    );
  });
});
