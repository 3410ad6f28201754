// Configured redirect paths (send()'s successRedirect and failureRedirect, the guards' loginUrl)
// are checked at start-up: only a path in the characters a URL holds as they are (others
// percent-encoded). `/〱google.com` used to pass, after which every redirect to it was a 500
// (Node refuses the header: ERR_INVALID_CHAR), on the send route after the link went out;
// `/café` went out as a raw byte.
import { describe, expect, it } from 'vitest';
import { requireIdentity, requireLowRisk } from '../../src/index.js';
import { useSharedEmulator } from '../helpers/sharedEmulator.js';

const { harness, emulator } = useSharedEmulator();

// A percent sign opens a two-digit hex escape: one digit (`/%4g`, `/a%4`) is no escape.
const UNENCODED = [
  '/〱google.com',
  '/café',
  '/check inbox',
  '/a"b',
  '/a<b>',
  '/%zz',
  '/100%',
  '/%4g',
  '/a%4',
  '/a`b',
  '/a{b}',
];

describe('redirect paths are ASCII paths, or encoded, or refused at start-up', () => {
  it.each(UNENCODED)('send() refuses successRedirect and failureRedirect %j', async (path) => {
    const h = await harness();
    for (const key of ['successRedirect', 'failureRedirect'] as const) {
      expect(() => h.strategy.send({ [key]: path })).toThrow(
        new TypeError(`send(): options.${key} must be a path on this site, such as '/check-inbox'`),
      );
    }
  });

  it.each(UNENCODED)('the guards refuse loginUrl %j', (path) => {
    expect(() => requireLowRisk({ loginUrl: path })).toThrow(/^requireLowRisk\(\): options\.loginUrl must be/);
    expect(() => requireIdentity('EMAIL', { loginUrl: path })).toThrow(
      /^requireIdentity\(\): options\.loginUrl must be/,
    );
  });

  it('an encoded path is accepted, and a browser is sent there as it is written', async () => {
    const h = await harness({ send: { successRedirect: '/caf%C3%A9/ok?x=%E3%80%B1' } });
    const res = await h
      .browser()
      .post('/auth/magic-link')
      .type('form')
      .set('accept', 'text/html')
      .send({ email: 'encoded@redirect.example' });
    expect(res.status).toBe(303);
    expect(res.headers.location).toBe('/caf%C3%A9/ok?x=%E3%80%B1');
    expect(
      emulator()
        .outbox()
        .some((e) => e.to === 'encoded@redirect.example'),
    ).toBe(true);
    expect(() => requireLowRisk({ loginUrl: '/sign-in?next=%2Fpay#top' })).not.toThrow();
  });
});
