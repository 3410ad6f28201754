import type { CodeUserDetails, CodeVerificationResult } from '../../wire/types.js';
import { epochMs, isoTime, object, string } from './check.js';
import { basicDeviceInfo } from './device.js';
import { codeIdentities } from './identity.js';
import { codeNetwork } from './network.js';

const userDetails = object<CodeUserDetails>(
  { token: string, identities: codeIdentities },
  { status: string, completedAt: epochMs, timestamp: isoTime, network: codeNetwork, deviceInfo: basicDeviceInfo },
);

/**
 * Verify code: what the login needs is required, the rest of spec 2.9 checked when present.
 * Both shapes of the answer fit (service-facts.md): the current one (`completedAt`, identities
 * with `verifiedTimestamp`) and the older one (`timestamp`, identities with `verifiedAt` and `name`).
 */
export const codeVerificationResult = object<CodeVerificationResult>(
  { requestId: string, userDetails },
  { message: string },
);
