// runCheck against the emulator with no quirk: every unknown answered as the library assumes,
// the link opened both ways (followed to the check's listener, or its landing URL handed back).
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Emulator } from '../../src/emulator/index.js';
import { CheckOptionsError } from '../../src/check/options.js';
import { renderJson, renderTable } from '../../src/check/report.js';
import { PROBE_FLOW, runCheck } from '../../src/check/run.js';
import { FINDING_KEYS } from '../../src/check/types.js';
import { CLIENT, clicker, codeIn, optionsFor, startCheckEmulator } from './helpers.js';

let emulator: Emulator;
beforeAll(async () => {
  emulator = await startCheckEmulator();
});
beforeEach(() => emulator.reset());
afterAll(() => emulator.close());

describe('runCheck against a service that does what the library assumes', () => {
  it('follows the link to its listener and finds every unknown as assumed', async () => {
    const person = clicker(emulator);
    const lines: string[] = [];
    const report = await runCheck(optionsFor(emulator), {
      say: (line) => lines.push(line),
      landing: () => person.followToListener(),
    });

    expect(report.complete).toBe(true);
    expect(report.credentials).toMatchObject({
      outcome: 'expected',
      accepted: true,
      probe: { status: 400, errorCode: '7114' },
    });
    expect(report.callbackParam).toMatchObject({ outcome: 'expected', name: 'code', via: 'query' });
    expect(report.callbackParam.params).toEqual(['flow', 'code']);
    expect(report.queryKept).toMatchObject({ outcome: 'expected', kept: true, flow: 'same' });
    expect(report.codeAccepted).toMatchObject({ outcome: 'expected', accepted: true });
    expect(report.requestIds).toMatchObject({ outcome: 'expected', equal: true, perChannel: 'single', sendEntries: 1 });
    expect(report.verifyShape).toMatchObject({ outcome: 'expected', shape: 'current' });
    expect(report.verifyShape.fields).toEqual(expect.arrayContaining(['completedAt', 'verifiedTimestamp']));
    expect(report.replay).toMatchObject({
      outcome: 'expected',
      refused: true,
      response: { status: 400, errorCode: '7114' },
    });
    expect(report.enrichment).toMatchObject({
      outcome: 'expected',
      validateToken: { accepted: true },
      secureInfo: { accepted: true },
      userInfo: { accepted: true },
    });
    expect(report.channel).toMatchObject({ outcome: 'skipped', answer: 'not tried: no --mobile given' });
    expect(report.plusSign).toMatchObject({ outcome: 'skipped' });
    expect(report.observed).toEqual({ errorWith200: [], noErrorCodeOn401: [] });

    const texts = report.recommendations.map((r) => r.text);
    expect(texts).toContainEqual(expect.stringMatching(/flow parameter comes back → crossDevice 'handoff'.* works/));
    expect(texts).toContainEqual(
      expect.stringMatching(/validateToken and secureInfo accept .*enrich: \['secureInfo'\]/),
    );

    // One link went out, to the listener, with the check's flow parameter.
    expect(emulator.outbox()).toHaveLength(1);
    const sentTo = new URL(emulator.outbox()[0]!.redirectUri);
    expect(sentTo.origin).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(sentTo.pathname).toBe('/callback');
    expect(sentTo.searchParams.get('flow')).toBe(PROBE_FLOW);

    // Neither the secret nor the code appears in the report, the table or the progress lines.
    const code = codeIn(person.location);
    for (const text of [renderJson(report), renderTable(report), lines.join('\n')]) {
      expect(text).not.toContain(CLIENT.clientSecret);
      expect(text).not.toContain(code);
    }
  });

  it('takes the landing URL handed back (a paste), with e-mail and mobile: one request id shared', async () => {
    const person = clicker(emulator, 'MOBILE');
    const report = await runCheck(optionsFor(emulator, { mobile: '+91 98765 43210' }), {
      landing: () => person.handBack(),
    });
    expect(report.complete).toBe(true);
    expect(report.requestIds).toMatchObject({ outcome: 'expected', equal: true, perChannel: 'shared', sendEntries: 2 });
    // The MOBILE entry names the service's number on the channel used: SMS, not WhatsApp.
    expect(report.channel).toMatchObject({ outcome: 'expected', channel: 'SMS', destinationUri: 'sms:+910000000000' });
    expect(
      emulator
        .outbox()
        .map((entry) => entry.channel)
        .sort(),
    ).toEqual(['EMAIL', 'SMS']);
    expect(report.queryKept.kept).toBe(true);
  });

  it('with --channel WHATSAPP, reports the WhatsApp destination and leaves SMS untried', async () => {
    const person = clicker(emulator, 'MOBILE');
    const report = await runCheck(
      optionsFor(emulator, { email: undefined, mobile: '919876543210', channel: 'WHATSAPP' }),
      {
        landing: () => person.handBack(),
      },
    );
    expect(report.channel).toMatchObject({ outcome: 'skipped', channel: 'WHATSAPP' });
    expect(report.channel.destinationUri).toMatch(/^https:\/\/wa\.me\/\d+$/);
    expect(report.requestIds.perChannel).toBe('single');
  });

  it('renders a table row per finding, and JSON that parses back to the report', async () => {
    const person = clicker(emulator);
    const report = await runCheck(optionsFor(emulator), { landing: () => person.handBack() });
    const table = renderTable(report);
    expect(table.split('\n').filter((line) => /^(credentials accepted|\+ in mobile_number) /.test(line))).toHaveLength(
      2,
    );
    expect(table).toContain('What this means for passport-otpless:');
    expect(table).toContain('Every check ran.');
    expect(JSON.parse(renderJson(report))).toEqual(report);
    expect(Object.keys(report)).toEqual(expect.arrayContaining([...FINDING_KEYS, 'recommendations', 'complete']));
  });
});

describe('what the landing URL says', () => {
  const landWith = (rewrite: (url: URL) => string) => {
    const person = clicker(emulator);
    return async () => rewrite(new URL(await person.handBack()));
  };

  it('a code in the fragment, or under another name, is found and named (not as assumed)', async () => {
    const inFragment = await runCheck(optionsFor(emulator), {
      landing: landWith(
        (url) => `${url.origin}${url.pathname}?flow=${PROBE_FLOW}#code=${url.searchParams.get('code')}`,
      ),
    });
    expect(inFragment.callbackParam).toMatchObject({ outcome: 'unexpected', name: 'code', via: 'fragment' });
    expect(inFragment.codeAccepted.accepted).toBe(true);

    const otherName = await runCheck(optionsFor(emulator), {
      landing: landWith((url) => `${url.origin}${url.pathname}?token=${url.searchParams.get('code')}`),
    });
    expect(otherName.callbackParam).toMatchObject({ outcome: 'unexpected', name: 'token', via: 'query' });
    expect(otherName.queryKept).toMatchObject({ kept: false, flow: 'absent' });
    expect(otherName.recommendations.map((r) => r.text)).toContainEqual(expect.stringMatching(/"token".*INVALID_CODE/));
  });

  it('no code at all: the verify steps are skipped with the reason', async () => {
    const report = await runCheck(optionsFor(emulator), {
      landing: landWith((url) => `${url.origin}${url.pathname}?flow=${PROBE_FLOW}&state=x`),
    });
    expect(report.callbackParam).toMatchObject({ outcome: 'unexpected', params: ['flow', 'state'] });
    expect(report.codeAccepted).toEqual({ outcome: 'skipped', answer: 'not run: no code in the landing URL' });
    expect(report.replay.outcome).toBe('skipped');
    expect(report.complete).toBe(true);
  });

  it('a code bare in the query (no name): found nowhere, and its text never shown as a name', async () => {
    const person = clicker(emulator);
    const report = await runCheck(optionsFor(emulator), {
      landing: async () => {
        const url = new URL(await person.handBack());
        return `${url.origin}${url.pathname}?${url.searchParams.get('code')}`;
      },
    });
    expect(report.callbackParam).toMatchObject({ outcome: 'unexpected', params: ['<24 characters>'] });
    expect(renderJson(report)).not.toContain(codeIn(person.location));
  });

  it('a flow parameter with another value counts as not kept', async () => {
    const report = await runCheck(optionsFor(emulator), {
      landing: landWith((url) => url.href.replace(PROBE_FLOW, 'something-else')),
    });
    expect(report.queryKept).toMatchObject({ outcome: 'unexpected', kept: false, flow: 'other' });
  });

  it('nobody opens the link: the wait times out, the report says so and is not complete', async () => {
    const report = await runCheck(optionsFor(emulator, { clickTimeoutMs: 300 }));
    expect(report.callbackParam).toMatchObject({
      outcome: 'failed',
      answer: expect.stringMatching(/not opened within/),
    });
    expect(report.codeAccepted).toEqual({ outcome: 'skipped', answer: 'not run: no landing URL' });
    expect(report.complete).toBe(false);
  });

  it('a pasted line that is not a URL fails the step', async () => {
    const report = await runCheck(optionsFor(emulator), { landing: async () => 'not a url at all' });
    expect(report.callbackParam.outcome).toBe('failed');
    expect(report.complete).toBe(false);
  });
});

describe('when steps cannot run', () => {
  it('a service that cannot be reached: credentials cannot be told, nothing else runs', async () => {
    const report = await runCheck(optionsFor(emulator, { authUrl: 'http://127.0.0.1:9', requestTimeoutMs: 2000 }));
    expect(report.credentials).toMatchObject({ outcome: 'failed', probe: { kind: 'network' } });
    expect(report.queryKept.answer).toBe('not run: the credentials could not be checked');
    expect(report.complete).toBe(false);
    // Nothing else ran, so nothing else is recommended.
    expect(report.recommendations).toEqual([{ topic: 'credentials', text: expect.stringMatching(/could not tell/) }]);
  });

  it('a rate limit, an outage or a bare 403 on the credential probe: cannot tell, nothing sent', async () => {
    const faults = [
      { error: 'authRateLimited' as const },
      { status: 503 },
      { status: 403, body: { message: 'Forbidden' } },
    ];
    for (const fault of faults) {
      emulator.fault({ path: '/auth/v1/verify/code', ...fault });
      const report = await runCheck(optionsFor(emulator));
      expect(report.credentials.outcome, JSON.stringify(fault)).toBe('failed');
      expect(report.credentials.answer).toMatch(/^cannot tell: verify-code answered HTTP/);
    }
    expect(emulator.outbox()).toEqual([]);
    // An expired-code answer (401 with 7301) is about the code: the credentials passed.
    emulator.fault({ path: '/auth/v1/verify/code', error: 'expired' });
    const person = clicker(emulator);
    const expired = await runCheck(optionsFor(emulator), { landing: () => person.handBack() });
    expect(expired.credentials).toMatchObject({ accepted: true, probe: { status: 401, errorCode: '7301' } });
    expect(emulator.outbox()).toHaveLength(1);
  });

  it('SMS not enabled for the country: the channel says so, and the e-mail goes alone', async () => {
    emulator.fault({ path: '/auth/v1/authorize', error: 'smsNotEnabledForCountry' });
    const person = clicker(emulator);
    const report = await runCheck(optionsFor(emulator, { mobile: '919876543210' }), {
      landing: () => person.handBack(),
    });
    expect(report.channel).toMatchObject({ outcome: 'unexpected', error: { status: 401, errorCode: '7025' } });
    expect(report.channel.answer).toMatch(/SMS is not enabled/);
    expect(emulator.outbox().map((entry) => entry.type)).toEqual(['EMAIL']);
    expect(report.queryKept.kept).toBe(true);
    expect(report.recommendations.map((r) => r.topic)).toContain('channel');
  });

  it('a send that fails: the landing steps are skipped, the report is not complete', async () => {
    emulator.fault({ path: '/auth/v1/authorize', status: 503 });
    const report = await runCheck(optionsFor(emulator));
    expect(report.callbackParam).toMatchObject({
      outcome: 'failed',
      answer: expect.stringMatching(/no link was sent/),
    });
    expect(report.enrichment.answer).toBe('not run: no link was sent');
    expect(report.complete).toBe(false);
  });

  it('a redirect URI the service does not allow (7108): named, with what to do', async () => {
    emulator.fault({ path: '/auth/v1/authorize', error: 'invalidRedirectUri' });
    const report = await runCheck(optionsFor(emulator));
    expect(report.callbackParam).toMatchObject({
      outcome: 'failed',
      sendError: { status: 400, errorCode: '7108' },
      answer: 'no link was sent: the service refused the redirect URI (HTTP 400 errorCode 7108)',
    });
    expect(report.recommendations.map((r) => r.text)).toContainEqual(
      expect.stringMatching(/refused the redirect URI \(7108\) → allow it in your OTPless app/),
    );
  });

  it('rejects bad options before anything is sent', async () => {
    const bad = [
      { email: undefined },
      { email: 'not-an-address' },
      { email: undefined, mobile: '12' },
      { probePlus: true },
      { channel: 'VIBER' as never },
      { authUrl: 'ftp://example.com' },
      { port: 70000 },
      { clickTimeoutMs: 0 },
      { clientSecret: '' },
    ];
    for (const extra of bad) {
      await expect(runCheck(optionsFor(emulator, extra)), JSON.stringify(extra)).rejects.toThrow(CheckOptionsError);
    }
    await expect(runCheck(optionsFor(emulator, { landingPage: 'https://app.test/landing' }))).rejects.toThrow(
      /io\.landing/,
    );
    expect(emulator.outbox()).toHaveLength(0);
  });
});
