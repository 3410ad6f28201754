// What the waiting page offers once the resend wait is over (src/routes/againChoices.ts).
import { describe, expect, it } from 'vitest';
import { againChoices } from '../../src/routes/againChoices.js';

describe('againChoices', () => {
  it('after WhatsApp: SMS instead, then WhatsApp again', () => {
    expect(againChoices([{ channel: 'WHATSAPP' }], true)).toEqual([
      { channel: 'SMS', kind: 'instead' },
      { channel: 'WHATSAPP', kind: 'same' },
    ]);
  });

  it('after SMS: WhatsApp instead, then SMS again', () => {
    expect(againChoices([{ channel: 'SMS' }], true)).toEqual([
      { channel: 'WHATSAPP', kind: 'instead' },
      { channel: 'SMS', kind: 'same' },
    ]);
  });

  it('fallbackChannel: false offers the same channel only', () => {
    expect(againChoices([{ channel: 'WHATSAPP' }], false)).toEqual([{ channel: 'WHATSAPP', kind: 'same' }]);
  });

  it('e-mail: send it again, whatever fallbackChannel says', () => {
    expect(againChoices([{ channel: 'EMAIL' }], true)).toEqual([{ channel: 'EMAIL', kind: 'same' }]);
  });

  it('an address and a number: the number decides, the address goes again with it', () => {
    expect(againChoices([{ channel: 'EMAIL' }, { channel: 'SMS' }], true)).toEqual([
      { channel: 'WHATSAPP', kind: 'instead' },
      { channel: 'SMS', kind: 'same' },
    ]);
  });

  it('nothing sent: nothing offered', () => {
    expect(againChoices([], true)).toEqual([]);
  });
});
