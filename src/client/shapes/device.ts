import type { BasicDeviceInfo, BrowserInfo, DeviceInfo, SessionDeviceInfo } from '../../wire/types.js';
import { boolean, integer, number, object, string } from './check.js';

const basic = {
  userAgent: string,
  platform: string,
  vendor: string,
  language: string,
  cookieEnabled: boolean,
  screenWidth: integer,
  screenHeight: integer,
  screenColorDepth: integer,
  devicePixelRatio: number,
};

const extended = {
  browser: string,
  connection: string,
  timezoneOffset: integer,
  cpuArchitecture: string,
  fontFamily: string,
};

/** Device info of verify-code: the nine basic members. */
export const basicDeviceInfo = object<BasicDeviceInfo>({}, basic);

/** Device info of session details (no deviceId, no browserInfo). */
export const sessionDeviceInfo = object<SessionDeviceInfo>({}, { ...basic, ...extended });

const browserInfo = object<BrowserInfo>(
  {},
  {
    browserName: string,
    os: string,
    osVersion: string,
    device: string,
    browserMajorVersion: string,
    browserFullVersion: string,
    userAgent: string,
  },
);

/** Device info of validate-token and secure-info (`device_info`). */
export const deviceInfo = object<DeviceInfo>({}, { ...basic, ...extended, deviceId: string, browserInfo });
