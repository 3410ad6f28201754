import type { SessionDetails } from '../../wire/types.js';
import { epochMs, object, string } from './check.js';
import { sessionDeviceInfo } from './device.js';
import { sessionIdentities } from './identity.js';
import { sessionNetwork } from './network.js';

/** Session details: spec 2.8; `startedAt`/`lastActiveAt` and identity `verifiedAt` are epoch ms. */
export const sessionDetails = object<SessionDetails>(
  { sessionToken: string, userId: string, identities: sessionIdentities },
  { startedAt: epochMs, lastActiveAt: epochMs, deviceInfo: sessionDeviceInfo, network: sessionNetwork },
);
