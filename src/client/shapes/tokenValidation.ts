import type { TokenValidationResult } from '../../wire/types.js';
import { object, string } from './check.js';
import { deviceInfo } from './device.js';
import { tokenIdentities } from './identity.js';
import { network } from './network.js';
import { secureInfo } from './secureInfo.js';

/** Validate token: all of spec 2.7 except `secureInfo`, sent only with the secure SDK. */
export const tokenValidationResult = object<TokenValidationResult>(
  { token: string, status: string, userId: string, timestamp: string, identities: tokenIdentities, network, deviceInfo },
  { secureInfo },
);
