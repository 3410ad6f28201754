// Mutation survivors of src/limits/keys.ts: which sends an attacker can make count apart
// (to dodge a limit) or together (to spend someone else's budget).
import { toASCII } from 'tr46';
import { describe, expect, it } from 'vitest';
import { destinationKey, ipKey } from '../../src/limits/keys.js';

describe('ipKey', () => {
  it('keys IPv6 by its /64, written out in full', () => {
    expect(ipKey('2001:DB8::1')).toBe('i:2001:db8:0:0::/64');
    expect(ipKey('::1')).toBe('i:0:0:0:0::/64');
    expect(ipKey('1:2:3:4:5:6:7:8')).toBe('i:1:2:3:4::/64');
    expect(ipKey('fe80::1%eth0')).toBe('i:fe80:0:0:0::/64');
    // An IPv4 tail is two groups: the one `::` stands for a single zero group here.
    expect(ipKey('1:2::3:4:5:6.7.8.9')).toBe('i:1:2:0:3::/64');
  });

  it('drops a zone id whatever it holds: dots or colons in it never move the address to another /64', () => {
    const key = ipKey('1::2:3:4:5:6');
    expect(key).toBe('i:1:0:0:2::/64');
    for (const zoned of ['1::2:3:4:5:6%x.y', '1::2:3:4:5:6%a:b', '1::2:3:4:5:6%eth0']) {
      expect(ipKey(zoned), zoned).toBe(key);
    }
  });

  it('reads IPv4-mapped IPv6 as IPv4, and nothing else as IPv4', () => {
    expect(ipKey('::ffff:10.20.30.40')).toBe('i:10.20.30.40');
    expect(ipKey('10.20.30.40')).toBe('i:10.20.30.40');
    expect(ipKey('1::ffff:1.2.3.4')).toBe('i:1:0:0:0::/64');
    expect(ipKey('::ffff:1.2.3.4x')).toBe('i:::ffff:1.2.3.4x');
  });

  it('keeps what is not an IP address as written, and no address as "unknown"', () => {
    expect(ipKey('proxy-x')).toBe('i:proxy-x');
    expect(ipKey(undefined)).toBe('i:unknown');
    expect(ipKey('')).toBe('i:unknown');
  });
});

describe('destinationKey', () => {
  it('keeps distinct mailboxes apart', () => {
    expect(destinationKey('ada@gmail.com')).not.toBe(destinationKey('bob@gmail.com'));
    expect(destinationKey('+a@example.com')).not.toBe(destinationKey('+b@example.com'));
    expect(destinationKey('straße@example.com')).not.toBe(destinationKey('strasse@example.com'));
  });

  it('counts a domain written only in non-ASCII letters and its punycode as one', () => {
    const domain = '例え。テスト'; // an ideographic full stop: not one ASCII character
    expect(destinationKey(`ada@${domain}`)).toBe(destinationKey(`ada@${toASCII(domain) ?? ''}`));
  });

  it('counts a number written with a trunk 0 after the country code as the number (one budget)', () => {
    // A UK mobile: `+44 07400 123456` is dialled as `+44 7400 123456`; so is the same without spaces.
    const key = destinationKey('+447400123456');
    expect(key).toBe('d:+447400123456');
    for (const written of ['+4407400123456', '+44 07400 123456', '447400123456', '4407400123456']) {
      expect(destinationKey(written), written).toBe(key);
    }
    // Asked again (the person's next request, the login's reset): still one key, and the
    // canonical writing still its own.
    for (const written of ['+4407400123456', '+447400123456', '+4407400123456']) {
      expect(destinationKey(written), written).toBe(key);
    }
  });

  it('counts a number outside the known ranges as + and its digits, however written', () => {
    const key = destinationKey('+99912345678');
    expect(key).toBe('d:+99912345678');
    expect(destinationKey('99912345678')).toBe(key);
    expect(destinationKey('+999 1234-5678')).toBe(key);
  });
});
