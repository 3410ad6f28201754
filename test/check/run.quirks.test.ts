// runCheck against the emulator once per quirk: each unknown of the real service going the
// other way must show up in the report as that effect, with settings that still work.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { QUIRK_NAMES, type Emulator, type QuirkName } from '../../src/emulator/index.js';
import { renderJson, renderTable } from '../../src/check/report.js';
import { runCheck } from '../../src/check/run.js';
import { FINDING_KEYS, type CheckReport } from '../../src/check/types.js';
import { CLIENT, clicker, codeIn, optionsFor, startCheckEmulator } from './helpers.js';

let emulator: Emulator;
beforeAll(async () => {
  emulator = await startCheckEmulator();
});
beforeEach(() => emulator.reset());
afterAll(() => emulator.close());

/** One run with the quirks on, the link followed to the check's listener; e-mail and mobile unless told. */
async function checkWith(quirks: QuirkName[], extra: Parameters<typeof optionsFor>[1] = {}): Promise<CheckReport> {
  emulator.setQuirks(Object.fromEntries(quirks.map((name) => [name, true])));
  const person = clicker(emulator);
  const report = await runCheck(optionsFor(emulator, { mobile: '919876543210', ...extra }), {
    landing: () => person.followToListener(),
    // The two validations of one token, apart on the emulator's clock, not the wall's.
    pause: async (ms) => emulator.advanceTime(ms),
  });
  // Whatever the quirk, nothing printable holds the secret or the code.
  for (const text of [renderJson(report), renderTable(report)]) {
    expect(text).not.toContain(CLIENT.clientSecret);
    if (person.location) expect(text).not.toContain(codeIn(person.location));
  }
  return report;
}

const texts = (report: CheckReport) => report.recommendations.map((r) => r.text);

/** The findings that differ from what the library assumes. */
const differing = (report: CheckReport) =>
  // Every finding but the `+` probe, which these runs do not ask for.
  FINDING_KEYS.filter((key) => key !== 'plusSign' && report[key].outcome === 'unexpected');

describe('each quirk shows up in the report as its effect', () => {
  it('covers every quirk of the emulator', () => {
    // A new quirk needs a test here: what would the check report for it?
    expect([...QUIRK_NAMES].sort()).toEqual(
      [
        'errorWith200',
        'legacyVerifyShape',
        'noErrorCodeOn401',
        'rejectVerifyTokenOnEnrich',
        'requestIdMismatch',
        'separateRequestIds',
        'stripRedirectQuery',
        'statusNotSuccess',
        'timestampAtAnswer',
        'omitVerifiedAt',
        'verifiedAtAtAnswer',
      ].sort(),
    );
  });

  it('timestampAtAnswer → the stamp moves between two validations; the age check rests on verifiedAt', async () => {
    const report = await checkWith(['timestampAtAnswer']);
    expect(differing(report)).toEqual(['tokenTimestamp']);
    expect(report.tokenTimestamp).toMatchObject({ meaning: 'answer', verifiedAt: true });
    // verifiedAt, in the same two answers, stayed put: it dates the sign-in.
    expect(report.verifiedAt).toMatchObject({ outcome: 'expected', meaning: 'signIn' });
    // Real time runs on too: at least the pause the check made on the emulator's clock.
    expect(report.tokenTimestamp.movedMs).toBeGreaterThanOrEqual(2_500);
    expect(report.tokenTimestamp.answer).toContain('it dates each answer');
    expect(texts(report).some((t) => t.startsWith('replay: validate-token gives no verifiedAt'))).toBe(false);
  });

  it('verifiedAtAtAnswer → verifiedAt moves between two validations; the report says frontend tokens are not single use', async () => {
    const report = await checkWith(['verifiedAtAtAnswer']);
    expect(differing(report)).toEqual(['verifiedAt']);
    expect(report.verifiedAt).toMatchObject({ outcome: 'unexpected', meaning: 'answer' });
    expect(report.verifiedAt.movedMs).toBeGreaterThanOrEqual(2_500);
    expect(report.tokenTimestamp).toMatchObject({ outcome: 'expected', meaning: 'signIn' });
    expect(texts(report)).toContainEqual(
      expect.stringContaining('verifiedAt dates each answer, not the sign-in → a frontend token'),
    );
    expect(renderTable(report)).toMatch(/identities verifiedAt stays put\s+DIFFERS\s+verifiedAt moved/);
  });

  it('timestampAtAnswer with omitVerifiedAt → frontend-token logins stay refused, said in a recommendation', async () => {
    const report = await checkWith(['timestampAtAnswer', 'omitVerifiedAt']);
    expect(report.tokenTimestamp).toMatchObject({ outcome: 'unexpected', meaning: 'answer', verifiedAt: false });
    expect(report.verifiedAt).toMatchObject({ outcome: 'unexpected', meaning: 'absent' });
    expect(texts(report)).toContainEqual(
      expect.stringContaining('frontend-token logins stay refused (TOKEN_REJECTED)'),
    );
  });

  it('omitVerifiedAt alone → the stamp stays put: it dates the sign-in, and the report says it could carry the age', async () => {
    const report = await checkWith(['omitVerifiedAt']);
    expect(report.tokenTimestamp).toMatchObject({ outcome: 'expected', meaning: 'signIn', verifiedAt: false });
    expect(texts(report)).toContainEqual(expect.stringContaining('frontend-token logins can rest their age on it'));
  });

  it('statusNotSuccess → verify-code is refused as a state other than SUCCESS, named in the table', async () => {
    const report = await checkWith(['statusNotSuccess']);
    expect(report.codeAccepted).toMatchObject({
      accepted: false,
      error: { kind: 'not-success', serviceStatus: 'NOT_FOUND' },
    });
    expect(renderTable(report)).toContain('status NOT_FOUND instead of SUCCESS');
  });

  it('stripRedirectQuery → the query is not kept; crossDevice refuse or accept, not handoff', async () => {
    const report = await checkWith(['stripRedirectQuery']);
    expect(differing(report)).toEqual(['queryKept']);
    expect(report.queryKept).toMatchObject({
      kept: false,
      flow: 'absent',
      answer: 'dropped: no flow parameter came back',
    });
    expect(report.callbackParam).toMatchObject({ outcome: 'expected', name: 'code', params: ['code'] });
    expect(report.requestIds.equal).toBe(true);
    const binding = report.recommendations.filter((r) => r.topic === 'binding').map((r) => r.text);
    expect(binding).toEqual([
      expect.stringMatching(
        /query is dropped → same-browser logins fall back to requestId; use crossDevice 'refuse' or 'accept'/,
      ),
    ]);
    expect(binding.join()).not.toMatch(/'handoff' \(the default\) works/);
  });

  it('requestIdMismatch → the ids differ; binding rests on the flow parameter', async () => {
    const report = await checkWith(['requestIdMismatch']);
    expect(differing(report)).toEqual(['requestIds']);
    expect(report.requestIds).toMatchObject({ equal: false, perChannel: 'shared', sendEntries: 2 });
    expect(texts(report)).toContainEqual(expect.stringMatching(/'handoff' \(the default\) works/));
    expect(texts(report)).toContainEqual(
      expect.stringMatching(/requestId is none of the send's → .*OTPLESS_REQUEST_ID_DIFFERS/),
    );
  });

  it('stripRedirectQuery and requestIdMismatch together → nothing binds: only accept', async () => {
    const report = await checkWith(['stripRedirectQuery', 'requestIdMismatch']);
    expect(differing(report)).toEqual(['queryKept', 'requestIds']);
    expect(texts(report)).toContainEqual(expect.stringMatching(/WRONG_BROWSER\); only crossDevice 'accept' signs in/));
  });

  it("rejectVerifyTokenOnEnrich → the enrichment calls refuse verify-code's token; leave enrich empty", async () => {
    const report = await checkWith(['rejectVerifyTokenOnEnrich']);
    expect(differing(report)).toEqual(['enrichment']);
    for (const call of ['validateToken', 'secureInfo', 'userInfo'] as const) {
      expect(report.enrichment[call]).toMatchObject({ accepted: false, error: { status: 400, errorCode: '7114' } });
    }
    expect(texts(report)).toContainEqual(
      expect.stringMatching(/refuse verify-code's token → leave both out of enrich/),
    );
    expect(texts(report)).toContainEqual(expect.stringMatching(/userInfo refuses it/));
    expect(texts(report).join()).not.toMatch(/enrich: \['secureInfo'\] \(or/);
  });

  it('legacyVerifyShape → the legacy shape, read all the same', async () => {
    const report = await checkWith(['legacyVerifyShape']);
    expect(differing(report)).toEqual(['verifyShape']);
    expect(report.verifyShape).toMatchObject({
      shape: 'legacy',
      fields: expect.arrayContaining(['timestamp', 'verifiedAt']),
    });
    expect(report.verifyShape.fields).not.toContain('completedAt');
    expect(report.enrichment.outcome).toBe('expected');
    expect(texts(report)).toContainEqual(expect.stringMatching(/legacy shape → the client reads it/));
  });

  it('separateRequestIds → one id per channel, still equal', async () => {
    const report = await checkWith(['separateRequestIds']);
    expect(report.requestIds).toMatchObject({
      outcome: 'expected',
      equal: true,
      perChannel: 'separate',
      sendEntries: 2,
    });
    expect(report.requestIds.answer).toMatch(/one id per channel/);
    expect(texts(report)).toContainEqual(expect.stringMatching(/its own request id → no matter/));
  });

  it('errorWith200 → noted where seen; the credentials still read as accepted, the replay as refused', async () => {
    const report = await checkWith(['errorWith200'], { probePlus: true });
    expect(report.credentials).toMatchObject({ accepted: true, probe: { status: 200, errorCode: '7114' } });
    expect(report.replay).toMatchObject({ refused: true, response: { status: 200, errorCode: '7114' } });
    expect(report.plusSign).toMatchObject({ accepted: false, status: 200, errorCode: '7102' });
    expect(report.observed.errorWith200).toEqual([
      'verifyCode (nonsense code)',
      'verifyCode (replay)',
      'sendMagicLink (+ in number)',
    ]);
    expect(report.complete).toBe(true);
    expect(texts(report)).toContainEqual(expect.stringMatching(/^errors: answered with HTTP 200 .*502/));
    expect(renderTable(report)).toContain('- errors answered with HTTP 200: verifyCode (nonsense code)');
  });

  it('errorWith200 with wrong credentials → still refused (7002 in a 200)', async () => {
    const report = await checkWith(['errorWith200'], { clientSecret: 'wrong-secret' });
    expect(report.credentials).toMatchObject({
      outcome: 'unexpected',
      accepted: false,
      probe: { status: 200, errorCode: '7002' },
    });
    expect(emulator.outbox()).toEqual([]);
  });

  it('noErrorCodeOn401 with wrong credentials → still reported as credentials rejected, and noted', async () => {
    const report = await checkWith(['noErrorCodeOn401'], { clientSecret: 'wrong-secret' });
    expect(report.credentials).toMatchObject({
      outcome: 'unexpected',
      accepted: false,
      probe: { status: 401, serviceMessage: 'Access blocked' },
    });
    expect(report.credentials.probe).not.toHaveProperty('errorCode');
    expect(report.observed.noErrorCodeOn401).toEqual(['verifyCode (nonsense code)']);
    expect(report.complete).toBe(false);
    // Nothing is sent with refused credentials, and every later step says why it did not run.
    expect(emulator.outbox()).toEqual([]);
    expect(report.queryKept.answer).toBe('not run: the credentials were refused');
    expect(report.recommendations[0]).toMatchObject({
      topic: 'credentials',
      text: expect.stringMatching(/refused them \(HTTP 401 without errorCode\)/),
    });
    expect(report.recommendations).toHaveLength(1);
    expect(renderTable(report)).toContain('- 401 without errorCode: verifyCode (nonsense code)');
  });

  it('wrong credentials and no quirk → refused with 7002', async () => {
    const report = await checkWith([], { clientId: 'someone-else' });
    expect(report.credentials).toMatchObject({ accepted: false, probe: { status: 401, errorCode: '7002' } });
    expect(report.observed.noErrorCodeOn401).toEqual([]);
  });

  it('noErrorCodeOn401 with the right credentials → nothing differs', async () => {
    const report = await checkWith(['noErrorCodeOn401']);
    expect(differing(report)).toEqual([]);
    expect(report.complete).toBe(true);
  });
});

describe('--probe-plus', () => {
  it('asks authorize with mobile_number=+...: the emulator refuses it (7102), no second link', async () => {
    const report = await checkWith([], { probePlus: true });
    expect(report.plusSign).toMatchObject({ outcome: 'expected', accepted: false, status: 400, errorCode: '7102' });
    expect(emulator.outbox()).toHaveLength(2); // the main send's two entries only
  });

  it('a broken connection on the + call is reported without the URL (it holds the secret)', async () => {
    emulator.setQuirks({});
    const person = clicker(emulator);
    const report = await runCheck(optionsFor(emulator, { mobile: '919876543210', probePlus: true }), {
      landing: async () => {
        await person.followToListener();
        // The main send is done: the next authorize is the + probe.
        emulator.fault({ path: '/auth/v1/authorize', reset: true });
        return undefined;
      },
    });
    expect(report.plusSign.outcome).toBe('failed');
    expect(report.plusSign.answer).toMatch(/^the call failed: /);
    expect(renderJson(report)).not.toContain(CLIENT.clientSecret);
    expect(report.plusSign.answer).not.toContain('client_secret');
    expect(report.complete).toBe(false);
  });
});
