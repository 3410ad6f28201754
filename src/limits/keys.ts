/**
 * The keys sends are counted under: one per destination, one per destination and client, and
 * one per client, however written.
 * A shared store gets them hashed (`hashedKey`), so it never holds an e-mail address, a phone
 * number or an IP address in the clear.
 */
import * as crypto from 'node:crypto';
import { isIPv6 } from 'node:net';
import { lazyModule } from '../lazyModule.js';
import { verifiedPhone } from '../contact/phone.js';

// UTS #46, loaded by the first non-ASCII domain counted.
const tr46 = lazyModule<typeof import('tr46')>('tr46');

// eslint-disable-next-line no-control-regex -- the ASCII range is exactly what it names
const NON_ASCII = /[^\x00-\x7f]/;

/** Domains whose mailboxes ignore dots in the local part, and that are one mailbox system. */
const GMAIL_DOMAINS = new Set(['gmail.com', 'googlemail.com']);

/**
 * One key per destination however it was written: a number as E.164; an e-mail address with
 * its case folded and a `+tag` dropped from the local part (`Ada+x@Example.com` is
 * `ada@example.com`), since those reach one inbox. Gmail ignores dots and reads
 * `googlemail.com` as `gmail.com`, so `a.d.a@googlemail.com` counts as `ada@gmail.com`. (Only
 * for counting: the link goes to the address as typed.)
 *
 * @example
 * destinationKey('Ada+promo@Example.com') === destinationKey('ada@example.com') // true
 * destinationKey('A.da@googlemail.com') === destinationKey('ada@gmail.com')    // true
 */
export function destinationKey(destination: string): string {
  return `d:${canonicalDestination(destination)}`;
}

/**
 * One key per destination and client: the budget a stranger spends against a destination from
 * their own address, which leaves the owner's, asking from theirs, untouched.
 *
 * @example
 * destinationIpKey('ada@example.com', '203.0.113.7') !== destinationIpKey('ada@example.com', '198.51.100.2') // true
 */
export function destinationIpKey(destination: string, ip: string | undefined): string {
  return destinationKeys(destination, ip).pair;
}

/**
 * `destinationKey` and `destinationIpKey` of one destination at once: a send needs both, and
 * reading the destination (IDNA, a phone number's parse) is most of their cost.
 */
export function destinationKeys(destination: string, ip: string | undefined): { key: string; pair: string } {
  const canonical = canonicalDestination(destination);
  return { key: `d:${canonical}`, pair: `p:${canonicalIp(ip)}|${canonical}` };
}

/**
 * One key per client: an IPv4 address, or an IPv6 address by its /64 (one subscriber gets a
 * whole /64, so counting single addresses would count nothing). IPv4-mapped IPv6 is IPv4.
 *
 * @example
 * ipKey('2001:db8::1') === ipKey('2001:db8::2') // true
 */
export function ipKey(ip: string | undefined): string {
  return `i:${canonicalIp(ip)}`;
}

/**
 * A key as a shared store keeps it: SHA-256, 132 bits in base64url. (A hash of a phone number
 * can be brute-forced; it still keeps the numbers out of a dump, a `KEYS *` or a log.)
 */
export function hashedKey(key: string): string {
  return sha256(key, 'base64url').slice(0, 22);
}

/**
 * SHA-256 of a key as text: `crypto.hash` (Node 20.12+, about 3x faster on keys this short)
 * where there is one, `createHash` otherwise.
 */
export function sha256(key: string, encoding: 'hex' | 'base64url'): string {
  return typeof crypto.hash === 'function'
    ? crypto.hash('sha256', key, encoding)
    : crypto.createHash('sha256').update(key).digest(encoding);
}

/** The send route passes checked values (E.164, an address from readEmail); the app's own calls may not. */
function canonicalDestination(destination: string): string {
  const value = destination.trim();
  const at = value.lastIndexOf('@');
  if (at > 0) {
    // NFC leaves ASCII as it is: only a local part beyond it is normalized (an ICU call a login pays).
    const given = value.slice(0, at);
    const local = (NON_ASCII.test(given) ? given.normalize('NFC') : given).toLowerCase();
    const domain = value.slice(at + 1);
    const plus = local.indexOf('+');
    const ascii = NON_ASCII.test(domain) ? (tr46().toASCII(domain) ?? domain) : domain.toLowerCase();
    const mailbox = plus > 0 ? local.slice(0, plus) : local;
    if (GMAIL_DOMAINS.has(ascii)) return `${mailbox.replace(/\./g, '')}@gmail.com`;
    return `${mailbox}@${ascii}`;
  }
  // Every number is read, E.164-looking ones too: `+4407400123456` is `+447400123456` (a trunk
  // `0` after the country code), and counts as it. `verifiedPhone` keeps a number outside our
  // metadata's ranges as `+` and its digits, so `99912345678` and `+99912345678` count as one.
  return verifiedPhone(value) ?? value;
}

function canonicalIp(ip: string | undefined): string {
  if (ip === undefined || ip === '') return 'unknown';
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip);
  if (mapped?.[1] !== undefined) return mapped[1];
  // IPv4 and anything that is no IP address are kept as given.
  if (!isIPv6(ip)) return ip;
  return `${ipv6Groups(ip.split('%')[0] ?? ip)
    .slice(0, 4)
    .join(':')}::/64`;
}

/** The eight groups of an IPv6 address, `::` expanded (an IPv4 tail counts as two groups). */
function ipv6Groups(ip: string): string[] {
  const [head = '', tail] = ip.split('::');
  const count = (part: string) => (part === '' ? [] : part.split(':'));
  const headGroups = count(head);
  if (tail === undefined) return headGroups.map(hex);
  const tailGroups = count(tail);
  const tailSize = tailGroups.reduce((n, g) => n + (g.includes('.') ? 2 : 1), 0);
  const zeros = Array.from({ length: Math.max(0, 8 - headGroups.length - tailSize) }, () => '0');
  return [...headGroups, ...zeros, ...tailGroups].map(hex);
}

function hex(group: string): string {
  return group.includes('.') ? group : Number.parseInt(group, 16).toString(16);
}
