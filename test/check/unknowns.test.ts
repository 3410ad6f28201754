// The unknowns otpless-check settles beyond the first walk: lastActiveAt across two reads of a
// session, the raw risk values, the link opened twice. Against the emulator over real sockets
// where it can show the behaviour; the other way from answers as the real service could give them.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { OtplessClient } from '../../src/client/index.js';
import type { Emulator } from '../../src/emulator/index.js';
import { parseCheckArgs } from '../../src/check/args.js';
import { readLanding } from '../../src/check/landing.js';
import { linkTwice } from '../../src/check/linkTwice.js';
import { renderJson, renderTable } from '../../src/check/report.js';
import { riskValues } from '../../src/check/riskValues.js';
import { PROBE_FLOW, runCheck } from '../../src/check/run.js';
import { compareLastActive } from '../../src/check/sessionActivity.js';
import type { CheckReport } from '../../src/check/types.js';
import { compareVerifiedAt } from '../../src/check/verifiedAt.js';
import type { SecureInfo, SessionDetails, TokenValidationResult } from '../../src/wire/types.js';
import { CLIENT, codeIn, locationOf, newest, optionsFor, startCheckEmulator } from './helpers.js';

let emulator: Emulator;
beforeAll(async () => {
  emulator = await startCheckEmulator();
});
beforeEach(() => emulator.reset());
afterAll(() => emulator.close());

const texts = (report: CheckReport) => report.recommendations.map((r) => r.text);
const pause = async (ms: number) => emulator.advanceTime(ms);

/** Nothing printable holds the secret, the given secrets, or the codes seen. */
function expectNothingLeaked(report: CheckReport, secrets: string[]): void {
  for (const text of [renderJson(report), renderTable(report)]) {
    for (const secret of [CLIENT.clientSecret, ...secrets]) expect(text).not.toContain(secret);
  }
}

/** A finished login of the emulator (link sent, opened, code verified): its session token. */
async function liveSessionToken(): Promise<string> {
  const client = new OtplessClient({ ...CLIENT, authUrl: emulator.authUrl, userAuthUrl: emulator.userAuthUrl });
  try {
    await client.sendMagicLink({ email: 'grace@example.com', redirectUri: 'http://127.0.0.1/cb' });
    await client.verifyCode(codeIn(await locationOf(newest(emulator).link)));
    return newest(emulator).sessionToken;
  } finally {
    await client.close();
  }
}

/** The person: each call opens the newest link and follows it to the check's listener. */
function clicksThrough() {
  const locations: string[] = [];
  return {
    locations,
    landing: async () => {
      const location = await locationOf(newest(emulator).link);
      locations.push(location);
      await (await fetch(location)).text();
      return undefined;
    },
  };
}

describe('lastActiveAt across two reads of one session (get-session-details)', () => {
  it('the emulator moves it on every read: reported, with startedAt steady, and nothing to change', async () => {
    const sessionToken = await liveSessionToken();
    const person = clicksThrough();
    const report = await runCheck(optionsFor(emulator, { sessionToken }), { landing: person.landing, pause });
    expect(report.lastActiveAt).toMatchObject({ outcome: 'expected', meaning: 'read', startedAtSteady: true });
    expect(report.lastActiveAt.movedMs).toBeGreaterThanOrEqual(2_500);
    expect(texts(report)).toContainEqual(
      expect.stringMatching(/^session: reading moves lastActiveAt.* rest on startedAt/),
    );
    expect(report.complete).toBe(true);
    expectNothingLeaked(report, [sessionToken, codeIn(person.locations[0])]);
  });

  it('a session token the service refuses is a failed step, named, and the run is not complete', async () => {
    const person = clicksThrough();
    const report = await runCheck(optionsFor(emulator, { sessionToken: 'no-such-session-token' }), {
      landing: person.landing,
      pause,
    });
    expect(report.lastActiveAt).toMatchObject({ outcome: 'failed' });
    expect(report.lastActiveAt.answer).toContain('get-session-details refused the session token (HTTP 400');
    expect(report.complete).toBe(false);
  });

  it('without a session token it is skipped, saying how to give one', async () => {
    const person = clicksThrough();
    const report = await runCheck(optionsFor(emulator), { landing: person.landing, pause });
    expect(report.lastActiveAt).toEqual({
      outcome: 'skipped',
      answer: 'not tried: no session token given (OTPLESS_SESSION_TOKEN)',
    });
    expect(
      parseCheckArgs(['--email', 'a@example.com'], { ...envCredentials, OTPLESS_SESSION_TOKEN: 'tok-123' }),
    ).toMatchObject({ options: { sessionToken: 'tok-123' } });
  });

  const session = (over: Partial<SessionDetails>): SessionDetails =>
    ({
      sessionToken: 's',
      userId: 'u',
      identities: [],
      startedAt: 1_000,
      lastActiveAt: 5_000,
      ...over,
    }) as SessionDetails;

  it('a service that leaves it alone on reads: "activity"; one whose startedAt moves: said loudly', () => {
    expect(compareLastActive(session({}), session({}))).toMatchObject({
      outcome: 'expected',
      meaning: 'activity',
      startedAtSteady: true,
    });
    const moved = compareLastActive(session({}), session({ startedAt: 3_500, lastActiveAt: 7_500 }));
    expect(moved).toMatchObject({ outcome: 'unexpected', meaning: 'read', movedMs: 2_500, startedAtSteady: false });
    expect(moved.answer).toContain('startedAt MOVED 2500 ms');
    const none = compareLastActive(session({ startedAt: undefined }), session({ startedAt: undefined }));
    expect(none).toMatchObject({ outcome: 'unexpected', startedAtSteady: false });
    expect(none.answer).toContain('session-token logins are refused (TOKEN_REJECTED)');
  });
});

const envCredentials = { OTPLESS_CLIENT_ID: 'id', OTPLESS_CLIENT_SECRET: 'secret-1234' };

describe('verifiedAt across two validations of one token', () => {
  const answer = (verifiedAt: string | undefined) =>
    ({
      token: 't',
      userId: 'u',
      identities: [
        {
          identityType: 'EMAIL',
          identityValue: 'a@example.com',
          channel: 'OAUTH',
          verified: true,
          ...(verifiedAt ? { verifiedAt } : {}),
        },
      ],
    }) as unknown as TokenValidationResult;

  it('stays put → signIn; moves → answer, with how far; absent → absent', () => {
    expect(compareVerifiedAt(answer('2026-01-01T00:00:00Z'), answer('2026-01-01T00:00:00Z'))).toMatchObject({
      outcome: 'expected',
      meaning: 'signIn',
    });
    expect(compareVerifiedAt(answer('2026-01-01T00:00:00Z'), answer('2026-01-01T00:00:02.500Z'))).toMatchObject({
      outcome: 'unexpected',
      meaning: 'answer',
      movedMs: 2_500,
    });
    // Not an ISO time with a zone: unreadable, so nothing dates the sign-in.
    expect(compareVerifiedAt(answer('2026-01-01 00:00:00'), answer(undefined))).toMatchObject({ meaning: 'absent' });
  });
});

describe('the raw risk values', () => {
  it('the emulator (clean) answers known spellings on 0..1: printed, expected', async () => {
    const person = clicksThrough();
    const report = await runCheck(optionsFor(emulator), { landing: person.landing, pause });
    // validate-token in the enrichment, secure-info, and the two validations of the token.
    expect(report.riskValues).toMatchObject({
      outcome: 'expected',
      answers: 4,
      botResults: ['"notDetected"'],
      confidenceScore: { min: 0.99, max: 0.99, seen: 4 },
      anomalyScore: { min: 0.02, max: 0.02, seen: 4 },
    });
    expect(renderTable(report)).toContain('bot.result "notDetected"; confidence.score 0.99..0.99 (4 seen)');
  });

  it('the bot scenario: "bad" is a known spelling, printed as seen', async () => {
    const person = {
      landing: async () => {
        const location = await locationOf(`${newest(emulator).link}?risk=bot`);
        await (await fetch(location)).text();
        return undefined;
      },
    };
    const report = await runCheck(optionsFor(emulator), { landing: person.landing, pause });
    expect(report.riskValues).toMatchObject({ outcome: 'expected', botResults: ['"bad"'] });
  });

  it('another spelling or scale is unexpected, and the report says logins are refused, never let through', () => {
    const seen: Array<SecureInfo | undefined> = [
      { bot: { result: 'NOT_DETECTED' }, confidence: { score: 99 }, tampering: { result: false, anomalyScore: 0.1 } },
      {
        bot: { result: 'notDetected' },
        confidence: { score: 42 },
        tampering: { result: false, anomalyScore: '0.3' as unknown as number },
      },
      undefined,
    ];
    const finding = riskValues(seen);
    expect(finding).toMatchObject({
      outcome: 'unexpected',
      answers: 2,
      botResults: ['"NOT_DETECTED"', '"notDetected"'],
      confidenceScore: { min: 42, max: 99, seen: 2 },
      anomalyScore: { min: 0.1, max: 0.1, seen: 1, notNumbers: ['"0.3"'] },
    });
    expect(riskValues([undefined, {}])).toMatchObject({ outcome: 'skipped', answers: 0 });
  });
});

describe('the link opened twice (a mail scanner first)', () => {
  it("the emulator's link survives a first GET: the second opening's code verifies", async () => {
    const person = clicksThrough();
    const lines: string[] = [];
    const report = await runCheck(optionsFor(emulator, { openTwice: true }), {
      landing: person.landing,
      pause,
      say: (line) => lines.push(line),
    });
    expect(person.locations).toHaveLength(2);
    expect(report.linkTwice).toMatchObject({
      outcome: 'expected',
      secondLanded: true,
      secondCode: 'same',
      secondAccepted: true,
    });
    expect(report.codeAccepted.accepted).toBe(true);
    expect(lines).toContainEqual(expect.stringContaining('open the SAME link again'));
    expect(texts(report)).toContainEqual(expect.stringMatching(/^scanner: the link survives a first GET/));
    expectNothingLeaked(report, [codeIn(person.locations[0])]);
  });

  it('a second opening without a code (a spent link) is unexpected; the first code is still checked', async () => {
    let opened = 0;
    const report = await runCheck(optionsFor(emulator, { openTwice: true }), {
      pause,
      landing: async (link) => {
        opened += 1;
        const location = await locationOf(newest(emulator).link);
        if (opened === 1) return location;
        // What a spent hop might land on: the page, with no code.
        expect(link.again).toBe(true);
        return link.redirectUri;
      },
    });
    expect(report.linkTwice).toMatchObject({ outcome: 'unexpected', secondLanded: true, secondCode: 'none' });
    expect(report.codeAccepted.accepted).toBe(true);
    expect(texts(report)).toContainEqual(expect.stringMatching(/^scanner: .*prefer the mobile channel/));
  });

  it('another code that verify-code refuses, or no second landing at all', () => {
    const url = (code?: string) => new URL(`http://127.0.0.1/cb?flow=${PROBE_FLOW}${code ? `&code=${code}` : ''}`);
    const first = readLanding(url('first-code-1234'), 'flow', PROBE_FLOW);
    const second = readLanding(url('other-code-5678'), 'flow', PROBE_FLOW);
    const refused = { outcome: 'unexpected', accepted: false, answer: 'refused: HTTP 400 errorCode 7114' } as const;
    expect(linkTwice(first, second, refused)).toMatchObject({
      outcome: 'unexpected',
      secondCode: 'other',
      secondAccepted: false,
    });
    expect(linkTwice(first, undefined, undefined)).toMatchObject({ outcome: 'unexpected', secondLanded: false });
  });

  it('without --open-twice it is skipped, saying how to ask for it', async () => {
    const person = clicksThrough();
    const report = await runCheck(optionsFor(emulator), { landing: person.landing, pause });
    expect(person.locations).toHaveLength(1);
    expect(parseCheckArgs(['--email', 'a@example.com', '--open-twice'], envCredentials)).toMatchObject({
      options: { openTwice: true },
    });
    expect(report.linkTwice).toEqual({
      outcome: 'skipped',
      answer: 'not tried: it asks you to open the link twice (--open-twice)',
    });
  });
});
