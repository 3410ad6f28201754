/**
 * The client's tolerance and the risk policy together: dropping a malformed signal from an
 * answer never changes the verdict. For any edit of the risk signals that the client accepts,
 * `assessRisk` on the checked result equals `assessRisk` on the raw answer, under policies that
 * tell `missing`, `malformed` and `allow` apart, and so does its compact form.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodeBody } from '../../src/client/decode.js';
import { secureInfoResult, tokenValidationResult, type Mismatch } from '../../src/client/shapes/index.js';
import { assessRisk, type RiskPolicy } from '../../src/index.js';
import { compactSignals } from '../../src/risk/compact.js';
import { getAt, kind, paths, setAt, type Json, type Path } from '../helpers/jsonPaths.js';
import { secureInfoOk, validateTokenOk } from '../client/helpers/fixtures.js';
import { fuzzParams, fuzzRuns } from '../helpers/fuzzRuns.js';

/** 2,000 under test:slow, 200 in npm test (see fuzzRuns). */
const RUNS = fuzzRuns(2_000);
const NOW = Date.parse('2026-01-01T00:00:00Z');

interface Answer {
  name: 'validateToken' | 'secureInfo';
  shape: (value: unknown) => Mismatch | undefined;
  valid: Json;
  root: string;
}

const ANSWERS: Answer[] = [
  { name: 'validateToken', shape: tokenValidationResult, valid: validateTokenOk, root: 'secureInfo' },
  { name: 'secureInfo', shape: secureInfoResult, valid: secureInfoOk, root: 'secure_info' },
];

const POLICIES: (RiskPolicy | undefined)[] = [
  undefined,
  { missing: 'allow', malformed: 'challenge', requiredSignals: [] },
  { missing: 'challenge', malformed: 'block', incognito: 'challenge', privacySettings: 'block' },
];

/** Values of every JSON kind, and the near misses of the signals' own types. */
const value = fc.oneof(
  fc.jsonValue({ maxDepth: 2 }),
  fc.constantFrom('true', 'false', 'notDetected', 'bad', '1970-01-01T00:00:00Z', 'x'),
  fc.constantFrom(0, 1, -1, 0.5, 2, 1e308),
  fc.constantFrom({}, { result: 'true' }, { result: true }, { result: 1 }, { score: '0.9' }, { time: 0 }),
);

const edit = fc.record({
  action: fc.constantFrom('delete', 'replace', 'null'),
  pick: fc.nat(),
  value,
});

const answer = fc.constantFrom(...ANSWERS).chain((a) =>
  fc.array(edit, { minLength: 1, maxLength: 4 }).map((edits) => {
    let body = structuredClone(a.valid);
    for (const e of edits) {
      const inside = [[a.root], ...paths(getAt(body, [a.root])).map((p) => [a.root, ...p])] as Path[];
      const path = inside[e.pick % inside.length] as Path;
      if (e.action === 'delete' && path.length > 1) body = setAt(body, path, undefined);
      else if (e.action === 'null') body = setAt(body, path, null);
      else if (e.action === 'replace') body = setAt(body, path, e.value);
    }
    return { a, text: JSON.stringify(body) };
  }),
);

describe(`a dropped signal judges as it would in the raw answer (${RUNS} answers)`, () => {
  it(
    'assessRisk(checked result) equals assessRisk(raw answer), and the compact form agrees',
    { timeout: 600_000 },
    () => {
      let accepted = 0;
      let dropped = 0;
      fc.assert(
        fc.property(answer, ({ a, text }) => {
          let result: unknown;
          try {
            result = decodeBody(a.name, 200, text, a.shape);
          } catch {
            return; // not accepted: nothing to judge
          }
          accepted++;
          const raw: unknown = JSON.parse(text);
          const signals = (result as Record<string, unknown>)[a.root];
          if (
            kind(signals) !== kind(getAt(raw, [a.root])) ||
            JSON.stringify(signals) !== JSON.stringify(getAt(raw, [a.root]))
          )
            dropped++;
          for (const policy of POLICIES) {
            const expected = assessRisk(raw, policy, { now: NOW });
            expect(assessRisk(result, policy, { now: NOW })).toEqual(expected);
            expect(assessRisk(compactSignals(result), policy, { now: NOW })).toEqual(expected);
          }
        }),
        fuzzParams(RUNS),
      );
      // Not vacuous: many answers were accepted, and many of them with members dropped.
      expect(accepted).toBeGreaterThan(RUNS / 2);
      expect(dropped).toBeGreaterThan(RUNS / 10);
    },
  );
});
