import type { CodeNetwork, IpLocation, Network, SessionNetwork } from '../../wire/types.js';
import { type Check, number, object, string } from './check.js';

type Members<K extends keyof IpLocation> = NonNullable<IpLocation[K]>;

const city = object<Members<'city'>>({}, { name: string });
const subdivisions = object<Members<'subdivisions'>>({}, { code: string, name: string });
const country = object<Members<'country'>>({}, { code: string, name: string });
const continent = object<Members<'continent'>>({}, { code: string });
const asn = object<Members<'asn'>>({}, { asn: string, name: string, network: string });

const ipLocation = object<IpLocation>(
  {},
  { accuracyRadius: number, city, subdivisions, country, continent, latitude: number, longitude: number, postalCode: string, asn },
);

/** Network of validate-token and secure-info (`network_info`). */
export const network = object<Network>({ ip: string }, { timezone: string, ipLocation });

/** Network of verify-code: only the ip. */
export const codeNetwork = object<CodeNetwork>({ ip: string }, {});

/**
 * The wire type declares session `ipLocation` as `Omit<IpLocation, ...> & Extensible`, and `Omit`
 * over an index signature erases the named members; this local type restores them so the
 * runtime check is still compiled against the documented fields.
 */
type SessionIpLocation = Pick<IpLocation, 'city' | 'subdivisions' | 'country' | 'continent' | 'latitude' | 'longitude' | 'postalCode'>;
const sessionIpLocation = object<SessionIpLocation>(
  {},
  { city, subdivisions, country, continent, latitude: number, longitude: number, postalCode: string },
);

/** Network of session details: ipLocation without accuracyRadius and asn. */
export const sessionNetwork = object<SessionNetwork>(
  { ip: string },
  { timezone: string, ipLocation: sessionIpLocation as Check<NonNullable<SessionNetwork['ipLocation']>> },
);
