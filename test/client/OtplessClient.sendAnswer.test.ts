/**
 * The send's answer and the emulator's numbers as the spec shows them: an unknown request
 * entry type is skipped (as unknown identity types are), a `destinationUri` that is no
 * messaging link never reaches the browser, every MOBILE entry has one, and numbers are split
 * and accepted by numbering plan, not by counting digits. Over real sockets.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EMULATOR_DEFAULT_CLIENT, startEmulator, type Emulator } from '../../src/emulator/index.js';
import { OtplessClient } from '../../src/client/index.js';
import { DROPPED_MEMBERS } from '../../src/wire/types.js';
import { clickLink } from '../helpers/harness.js';
import { type CaptureServer, startCaptureServer } from './helpers/captureServer.js';

let server: CaptureServer;
let local: OtplessClient;
let emu: Emulator;
let client: OtplessClient;
beforeAll(async () => {
  server = await startCaptureServer();
  local = new OtplessClient({ clientId: 'id', clientSecret: 'secret', authUrl: server.url, userAuthUrl: server.url });
  emu = await startEmulator({ quiet: true });
  client = new OtplessClient({ ...EMULATOR_DEFAULT_CLIENT, authUrl: emu.authUrl, userAuthUrl: emu.userAuthUrl });
});
afterAll(async () => {
  await Promise.all([local.close(), client.close()]);
  await Promise.all([server.close(), emu.close()]);
});

const SEND = { email: 'ada@example.com', redirectUri: 'https://app.example/callback' };

describe("the send's answer", () => {
  it('an entry of an unknown type is skipped, not fatal', async () => {
    server.reply(() => ({
      body: {
        requestIds: [
          { type: 'RCS', value: 'r-0' },
          { type: 'EMAIL', value: 'r-1' },
        ],
      },
    }));
    expect((await local.sendMagicLink(SEND)).requestIds).toEqual([{ type: 'EMAIL', value: 'r-1' }]);
  });

  it.each([
    ['javascript:', 'javascript:alert(1)'],
    ['data:', 'data:text/html,<b>x</b>'],
    ['relative', '/wa'],
    ['with a control character', 'https://wa.me/91\n0'],
  ])('a %s destinationUri is dropped', async (_what, uri) => {
    server.reply(() => ({ body: { requestIds: [{ type: 'MOBILE', value: 'r-1', destinationUri: uri }] } }));
    const [entry] = (await local.sendMagicLink({ ...SEND, email: undefined, mobileNumber: '+919876543210' }))
      .requestIds;
    expect(entry).not.toHaveProperty('destinationUri');
    expect((entry as { [DROPPED_MEMBERS]?: string[] })[DROPPED_MEMBERS]).toEqual(['destinationUri']);
  });

  it.each(['https://wa.me/910000000000', 'sms:+910000000000', 'viber://chat?number=%2B910000000000'])(
    '%s is kept',
    async (uri) => {
      server.reply(() => ({ body: { requestIds: [{ type: 'MOBILE', value: 'r-1', destinationUri: uri }] } }));
      const [entry] = (await local.sendMagicLink({ ...SEND, email: undefined, mobileNumber: '+919876543210' }))
        .requestIds;
      expect(entry?.destinationUri).toBe(uri);
    },
  );
});

describe('the emulator, as the spec shows it', () => {
  it.each(['WHATSAPP', 'SMS'] as const)(
    'a %s send has destinationUri on its MOBILE entry, none on EMAIL',
    async (channel) => {
      const { requestIds } = await client.sendMagicLink({ ...SEND, mobileNumber: '+919876543210', channel });
      expect(requestIds.find((r) => r.type === 'MOBILE')?.destinationUri).toMatch(
        channel === 'SMS' ? /^sms:\+/ : /^https:\/\/wa\.me\//,
      );
      expect(requestIds.find((r) => r.type === 'EMAIL')).not.toHaveProperty('destinationUri');
    },
  );

  it.each([
    ['+290 8999 (Saint Helena, 7 digits)', '+290 8999', '+290', '8999'],
    ['+690 7290 (Tokelau, 7 digits)', '+690 7290', '+690', '7290'],
    ['+33 6 12 34 56 78 (a 9-digit national number)', '+33 6 12 34 56 78', '+33', '612345678'],
    ['+1 415 555 2671', '+1 415 555 2671', '+1', '4155552671'],
  ])('%s is accepted, and userInfo splits it by its numbering plan', async (_what, mobileNumber, cc, national) => {
    await client.sendMagicLink({ mobileNumber, redirectUri: SEND.redirectUri });
    const digits = mobileNumber.replace(/\D/g, '');
    const entry = emu.outbox().find((e) => e.to === digits)!;
    const code = new URL(await clickLink(entry.link), 'https://app.example').searchParams.get('code')!;
    const { userDetails } = await client.verifyCode(code);
    const info = await client.getUserInfo(userDetails.token);
    expect(info).toMatchObject({ country_code: cc, national_phone_number: national, phone_number: `+${digits}` });
  });
});
