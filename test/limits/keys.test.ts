// How sends are keyed and how a wait is put in words: the parts of the limits a person sees.
import { describe, expect, it } from 'vitest';
import { destinationIpKey, destinationKey, hashedKey, ipKey } from '../../src/limits/keys.js';
import { waitInWords } from '../../src/limits/wait.js';
import { toASCII } from 'tr46';
import { createHash } from 'node:crypto';
import { createRequire, syncBuiltinESMExports } from 'node:module';

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

// Which sends an attacker can make count apart
// (to dodge a limit) or together (to spend someone else's budget).

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

// The SHA-256 of a key on a Node without `crypto.hash`
// (20.0 to 20.11, which `engines` allows). Instances on different Node versions that share one
// Redis must count a client under one key, so the fallback must hash exactly as `crypto.hash`.
// The older Node is simulated by taking `hash` off `node:crypto` for one synchronous call.

const nodeCrypto = createRequire(import.meta.url)('node:crypto') as { hash?: unknown };

/** Runs `read` as on a Node before 20.12, whose `node:crypto` has no `hash`. */
function withoutCryptoHash<T>(read: () => T): T {
  const hash = nodeCrypto.hash;
  nodeCrypto.hash = undefined;
  syncBuiltinESMExports();
  try {
    return read();
  } finally {
    nodeCrypto.hash = hash;
    syncBuiltinESMExports();
  }
}

describe('hashedKey on a Node without crypto.hash', () => {
  it('hashes a key exactly as with it: SHA-256, base64url, 22 characters', () => {
    const key = 'i:203.0.113.7';
    const pinned = createHash('sha256').update(key).digest('base64url').slice(0, 22);
    expect(hashedKey(key)).toBe(pinned);
    expect(withoutCryptoHash(() => hashedKey(key))).toBe(pinned);
  });
});
