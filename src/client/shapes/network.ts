import type { CodeNetwork, IpLocation, Network, SessionNetwork } from '../../wire/types.js';
import { integer, number, object, string } from './check.js';

type Members<K extends keyof IpLocation> = NonNullable<IpLocation[K]>;

const city = object<Members<'city'>>({}, { name: string });
const subdivisions = object<Members<'subdivisions'>>({}, { code: string, name: string });
const country = object<Members<'country'>>({}, { code: string, name: string });
const continent = object<Members<'continent'>>({}, { code: string });
const asn = object<Members<'asn'>>({}, { asn: string, name: string, network: string });

const ipLocation = object<IpLocation>(
  {},
  {
    accuracyRadius: integer,
    city,
    subdivisions,
    country,
    continent,
    latitude: number,
    longitude: number,
    postalCode: string,
    asn,
  },
);

/** Network of validate-token and secure-info (`network_info`). */
export const network = object<Network>({}, { ip: string, timezone: string, ipLocation });

/** Network of verify-code: only the ip (the older shape of the answer has the full network). */
export const codeNetwork = object<CodeNetwork>({}, { ip: string, timezone: string, ipLocation });

type SessionIpLocation = NonNullable<SessionNetwork['ipLocation']>;
const sessionIpLocation = object<SessionIpLocation>(
  {},
  { city, subdivisions, country, continent, latitude: number, longitude: number, postalCode: string },
);

/** Network of session details: ipLocation without accuracyRadius and asn. */
export const sessionNetwork = object<SessionNetwork>(
  {},
  { ip: string, timezone: string, ipLocation: sessionIpLocation },
);
