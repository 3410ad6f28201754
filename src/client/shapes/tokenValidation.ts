import type { TokenValidationResult } from '../../wire/types.js';
import { isoTime, object, string } from './check.js';
import { deviceInfo } from './device.js';
import { tokenIdentities } from './identity.js';
import { network } from './network.js';
import { secureInfo } from './secureInfo.js';

/** Validate token: token, user id and identities required; the rest of spec 2.7 checked when present. */
export const tokenValidationResult = object<TokenValidationResult>(
  { token: string, userId: string, identities: tokenIdentities },
  { status: string, timestamp: isoTime, network, deviceInfo, secureInfo },
);
