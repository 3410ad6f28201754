import type { CodeUserDetails, CodeVerificationResult } from '../../wire/types.js';
import { number, object, string } from './check.js';
import { basicDeviceInfo } from './device.js';
import { codeIdentities } from './identity.js';
import { codeNetwork } from './network.js';

const userDetails = object<CodeUserDetails>(
  { token: string, status: string, completedAt: number, identities: codeIdentities, network: codeNetwork, deviceInfo: basicDeviceInfo },
  {},
);

/** Verify code: everything spec 2.9 lists, as the wire type declares it required. */
export const codeVerificationResult = object<CodeVerificationResult>({ requestId: string, message: string, userDetails }, {});
