import type { IpLocation, Network } from '../wire/types.js';
import type { RiskScenario } from './scenarios.js';

/** A made-up place an IP is said to be: its time zone and location (asn without its network). */
interface Place {
  timezone: string;
  ipLocation: IpLocation & { asn: { asn: string; name: string } };
}

// Where the emulator pretends an IP is: Bengaluru, or a VPN exit in Amsterdam for 'vpn'.
// AS 64500-64511 are reserved for documentation (RFC 5398).
const HOME: Place = {
  timezone: 'Asia/Kolkata',
  ipLocation: {
    accuracyRadius: 20,
    city: { name: 'Bengaluru' },
    subdivisions: { code: 'KA', name: 'Karnataka' },
    country: { code: 'IN', name: 'India' },
    continent: { code: 'AS' },
    latitude: 12.9716,
    longitude: 77.5946,
    postalCode: '560001',
    asn: { asn: 'AS64500', name: 'Emulated Broadband' },
  },
};

const VPN_EXIT: Place = {
  timezone: 'Europe/Amsterdam',
  ipLocation: {
    accuracyRadius: 100,
    city: { name: 'Amsterdam' },
    subdivisions: { code: 'NH', name: 'North Holland' },
    country: { code: 'NL', name: 'Netherlands' },
    continent: { code: 'EU' },
    latitude: 52.3676,
    longitude: 4.9041,
    postalCode: '1012',
    asn: { asn: 'AS64501', name: 'Emulated Public VPN' },
  },
};

/** The network block (CIDR) an address belongs to: its /24, or the address itself for IPv6. */
function networkOf(ip: string): string {
  const v4 = /^(\d{1,3}\.\d{1,3}\.\d{1,3})\.\d{1,3}$/.exec(ip);
  return v4 ? `${v4[1]}.0/24` : `${ip}/128`;
}

/** Node reports IPv4 clients of a dual-stack socket as `::ffff:a.b.c.d`. */
export function normalizeIp(address: string | undefined): string {
  if (!address) return '0.0.0.0';
  return address.startsWith('::ffff:') ? address.slice(7) : address;
}

/**
 * The full network details of a login (with accuracyRadius, asn and postalCode); each
 * operation answers the members the spec lists for it.
 */
export function networkFor(ip: string, scenario: RiskScenario): Network & { ipLocation: IpLocation } {
  const { timezone, ipLocation } = scenario === 'vpn' ? VPN_EXIT : HOME;
  return { ip, timezone, ipLocation: { ...ipLocation, asn: { ...ipLocation.asn, network: networkOf(ip) } } };
}
