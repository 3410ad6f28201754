import { beforeAll, describe, expect, it } from 'vitest';
import type { Emulator } from '../../src/emulator/index.js';
import type { Harness, HarnessOptions } from '../helpers/harness.js';
import { useSharedEmulator } from '../helpers/sharedEmulator.js';

const pool = useSharedEmulator();
const app = (options: HarnessOptions = {}) => pool.harness(options);
let emulator: Emulator;
beforeAll(async () => {
  emulator = pool.emulator();
});
const send = (h: Harness, body: Record<string, string>) =>
  h.browser().post('/auth/magic-link').set('accept', 'application/json').send(body);

describe('the delivery channel of a mobile number', () => {
  it('is the service default (WhatsApp) unless chosen, and the answer names it', async () => {
    const h = await app();
    const res = await send(h, { mobile: '+14155550142' });
    expect(res.status).toBe(200);
    expect(res.body.sent).toEqual([
      { type: 'MOBILE', channel: 'WHATSAPP', destinationUri: expect.stringMatching(/^https:\/\/wa\.me\//) },
    ]);
    expect(emulator.outbox().at(-1)?.channel).toBe('WHATSAPP');
  });

  it("follows the strategy's channel option: SMS has an sms: link, no WhatsApp one", async () => {
    const h = await app({ strategy: { channel: 'SMS' } });
    const res = await send(h, { mobile: '+14155550143' });
    expect(res.body.sent).toEqual([{ type: 'MOBILE', channel: 'SMS', destinationUri: 'sms:+910000000000' }]);
    expect(emulator.outbox().at(-1)?.channel).toBe('SMS');
  });

  it('lets the visitor choose when the app names a channelField; a bad value is a 400 on that field', async () => {
    const h = await app({ send: { channelField: 'via' } });
    const sms = await send(h, { mobile: '+14155550144', via: 'sms' });
    expect(sms.body.sent[0].channel).toBe('SMS');
    expect(emulator.outbox().at(-1)?.channel).toBe('SMS');
    const before = emulator.outbox().length;
    const bad = await send(h, { mobile: '+14155550145', via: 'PIGEON' });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toMatchObject({ code: 'INVALID_INPUT', field: 'via', message: 'Choose WhatsApp or SMS.' });
    expect(emulator.outbox().length).toBe(before);
  });

  it('ignores a channel field the app did not allow', async () => {
    const h = await app();
    const res = await send(h, { mobile: '+14155550146', channel: 'SMS' });
    expect(res.body.sent[0].channel).toBe('WHATSAPP');
  });

  it('an e-mail is sent by e-mail whatever the channel', async () => {
    const h = await app({ strategy: { channel: 'SMS' } });
    const res = await send(h, { email: 'chan@example.com' });
    expect(res.body.sent).toEqual([{ type: 'EMAIL', channel: 'EMAIL' }]);
  });

  it('checks the option', async () => {
    await expect(app({ strategy: { channel: 'VIBER' as never } })).rejects.toThrow(
      "MagicLinkStrategy: options.channel must be one of 'WHATSAPP', 'SMS'",
    );
  });
});
