// How sends are keyed and how a wait is put in words: the parts of the limits a person sees.
import { describe, expect, it } from 'vitest';
import { destinationIpKey, destinationKey, hashedKey, ipKey } from '../../src/limits/keys.js';
import { waitInWords } from '../../src/limits/wait.js';

describe('destinationKey', () => {
  it('counts case, +tag and spacing variants of an address as one', () => {
    const one = destinationKey('ada@example.com');
    for (const variant of ['Ada@Example.COM', 'ada+news@example.com', ' ADA+x+y@example.com ', 'ada@EXAMPLE.com']) {
      expect(destinationKey(variant)).toBe(one);
    }
    expect(destinationKey('ada.l@example.com')).not.toBe(one);
    expect(destinationKey('ada@example.org')).not.toBe(one);
  });

  it("folds Gmail's dots, +tags and googlemail.com into one destination (for counting only)", () => {
    const one = destinationKey('adalovelace@gmail.com');
    for (const variant of ['Ada.Lovelace@gmail.com', 'a.d.a.lovelace+x@googlemail.com', 'ADALOVELACE@GoogleMail.com']) {
      expect(destinationKey(variant)).toBe(one);
    }
    // Dots matter elsewhere.
    expect(destinationKey('ada.lovelace@example.com')).not.toBe(destinationKey('adalovelace@example.com'));
  });

  it('keys a destination per client IP too, reading the IP as ipKey does', () => {
    const pair = destinationIpKey('Ada+x@Example.com', '::ffff:203.0.113.7');
    expect(pair).toBe(destinationIpKey('ada@example.com', '203.0.113.7'));
    expect(pair).not.toBe(destinationIpKey('ada@example.com', '203.0.113.8'));
    expect(pair).not.toBe(destinationIpKey('bob@example.com', '203.0.113.7'));
  });

  it('counts an international domain and its punycode as one', () => {
    expect(destinationKey('josé@bücher.example')).toBe(destinationKey('josé@xn--bcher-kva.example'));
  });

  it('counts every way of writing a number as one', () => {
    const one = destinationKey('+919876543210');
    for (const variant of ['919876543210', '+91 98765-43210', '+91\u00a098765\u201143210']) {
      expect(destinationKey(variant)).toBe(one);
    }
    expect(destinationKey('+919876543211')).not.toBe(one);
  });
});

describe('ipKey', () => {
  it('reads IPv4-mapped IPv6 as IPv4, and an IPv6 address by its /64', () => {
    expect(ipKey('::ffff:203.0.113.7')).toBe(ipKey('203.0.113.7'));
    expect(ipKey('2001:db8:1:2::1')).toBe(ipKey('2001:0db8:0001:0002:ffff:0:0:1'));
    expect(ipKey('2001:db8:1:2::1')).not.toBe(ipKey('2001:db8:1:3::1'));
    expect(ipKey('fe80::1%eth0')).toBe(ipKey('fe80::2'));
    expect(ipKey(undefined)).toBe(ipKey(''));
  });

  it('hashes keys for a shared store: no address, number or IP in the clear', () => {
    for (const key of [destinationKey('ada@example.com'), destinationKey('+919876543210'), ipKey('203.0.113.7')]) {
      expect(hashedKey(key)).toMatch(/^[\w-]{22}$/);
    }
  });
});

describe('waitInWords', () => {
  it.each([
    [0.2, '1 second'],
    [1, '1 second'],
    [45, '45 seconds'],
    [60, '1 minute'],
    [61, '2 minutes'],
    [150, '3 minutes'],
    [900, '15 minutes'],
    [89 * 60, '89 minutes'],
    [90 * 60, '2 hours'],
    [86_400, '24 hours'],
  ])('%d s is "%s" (rounded up: trying then works)', (seconds, words) => {
    expect(waitInWords(seconds)).toBe(words);
  });
});
