import type { SecureInfoResult } from '../../wire/types.js';
import { object, string } from './check.js';
import { deviceInfo } from './device.js';
import { network } from './network.js';
import { secureInfo } from './secureInfo.js';

/** Get secure info: snake_case keys; `secure_info` is the point of the call. */
export const secureInfoResult = object<SecureInfoResult>(
  { secure_info: secureInfo },
  { status: string, network_info: network, device_info: deviceInfo },
);
