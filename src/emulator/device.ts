import type { DeviceInfo } from '../wire/types.js';
import { deviceIdFor } from './ids.js';
import type { RiskScenario } from './scenarios.js';

/** What the emulator saw of the browser that clicked the link (or what issueToken assumes). */
export interface BrowserSeen {
  userAgent: string;
  ip: string;
  /** First tag of Accept-Language, e.g. `en-US`. */
  language: string;
}

/**
 * Only this much of a User-Agent is kept and parsed: real ones are far shorter, and a capped
 * input keeps parsing cheap whatever a client sends (headers may be 16 KB).
 */
export const MAX_USER_AGENT_LENGTH = 512;

/** Used when the clicking client sends no User-Agent, and by issueToken. */
export const DEFAULT_USER_AGENT =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.6478.127 Safari/537.36';

// The 'emulator' scenario describes an Android emulator whatever browser clicked, so that the
// device details agree with the signal (platform, os and user agent all Android).
const ANDROID_EMULATOR_USER_AGENT =
  'Mozilla/5.0 (Linux; Android 14; sdk_gphone64_x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.6478.122 Mobile Safari/537.36';

interface BrowserParts {
  name: string;
  fullVersion: string;
  vendor: string;
}

interface OsParts {
  os: string;
  osVersion: string;
  platform: string;
  mobile: boolean;
  cpu: string;
}

// Every pattern is linear: a literal, then one greedy class with nothing after it to backtrack
// into. Safari's and iOS's two-part checks are two separate searches instead of `A.*B`, which
// is quadratic on input with many A's and no B.
const BROWSERS: ReadonlyArray<{ pattern: RegExp; name: string; vendor: string; requires?: string }> = [
  { pattern: /Edg(?:e|A|iOS)?\/([\d.]+)/, name: 'Edge', vendor: 'Google Inc.' },
  { pattern: /OPR\/([\d.]+)/, name: 'Opera', vendor: 'Google Inc.' },
  { pattern: /(?:Firefox|FxiOS)\/([\d.]+)/, name: 'Firefox', vendor: '' },
  { pattern: /(?:HeadlessChrome|Chrome|CriOS)\/([\d.]+)/, name: 'Chrome', vendor: 'Google Inc.' },
  { pattern: /Version\/([\d.]+)/, name: 'Safari', vendor: 'Apple Computer, Inc.', requires: 'Safari/' },
];

const WINDOWS_VERSIONS: Readonly<Record<string, string>> = { '10.0': '10', '6.3': '8.1', '6.2': '8', '6.1': '7' };

function parseBrowser(userAgent: string): BrowserParts {
  for (const { pattern, name, vendor, requires } of BROWSERS) {
    const match = pattern.exec(userAgent);
    // "Version/x ... Safari/": the marker must come after the version.
    if (match && (requires === undefined || userAgent.includes(requires, match.index + match[0].length))) {
      return { name, fullVersion: match[1] ?? '', vendor };
    }
  }
  return { name: 'Unknown', fullVersion: '', vendor: '' };
}

/** The iOS version: " OS 17_5" somewhere after the first iPhone/iPad/iPod. */
function iosVersion(userAgent: string): string | undefined {
  const device = /iPhone|iPad|iPod/.exec(userAgent);
  if (!device) return undefined;
  return / OS ([\d_]+)/.exec(userAgent.slice(device.index + device[0].length))?.[1];
}

function parseOs(userAgent: string): OsParts {
  let match: RegExpExecArray | null;
  if ((match = /Android ([\d.]+)/.exec(userAgent))) {
    return { os: 'Android', osVersion: match[1] ?? '', platform: 'Linux armv8l', mobile: true, cpu: 'arm64' };
  }
  const ios = iosVersion(userAgent);
  if (ios !== undefined) {
    return { os: 'iOS', osVersion: ios.replaceAll('_', '.'), platform: 'iPhone', mobile: true, cpu: 'arm64' };
  }
  if ((match = /Windows NT ([\d.]+)/.exec(userAgent))) {
    const nt = match[1] ?? '';
    return { os: 'Windows', osVersion: WINDOWS_VERSIONS[nt] ?? nt, platform: 'Win32', mobile: false, cpu: 'amd64' };
  }
  if ((match = /Mac OS X ([\d_.]+)/.exec(userAgent))) {
    return {
      os: 'Mac OS',
      osVersion: (match[1] ?? '').replaceAll('_', '.'),
      platform: 'MacIntel',
      mobile: false,
      cpu: 'arm64',
    };
  }
  if (userAgent.includes('Linux'))
    return { os: 'Linux', osVersion: '', platform: 'Linux x86_64', mobile: false, cpu: 'amd64' };
  return { os: 'Unknown', osVersion: '', platform: '', mobile: false, cpu: '' };
}

/**
 * The full device details of a login (the secure-info variant, spec 2.5); the other operations
 * answer subsets of it. Screen and fonts are plausible fixed values: a server cannot see them.
 */
export function deviceInfoFor(seen: BrowserSeen, scenario: RiskScenario): DeviceInfo {
  const userAgent =
    scenario === 'emulator' ? ANDROID_EMULATOR_USER_AGENT : seen.userAgent.slice(0, MAX_USER_AGENT_LENGTH);
  const browser = parseBrowser(userAgent);
  const os = parseOs(userAgent);
  return {
    userAgent,
    platform: os.platform,
    vendor: browser.vendor,
    browser: browser.name,
    connection: '4g',
    language: seen.language,
    cookieEnabled: true,
    screenWidth: os.mobile ? 412 : 1920,
    screenHeight: os.mobile ? 915 : 1080,
    screenColorDepth: 24,
    devicePixelRatio: os.mobile ? 2.625 : 1,
    // The browser's clock is Indian in every scenario (the vpn scenario moves only the IP).
    timezoneOffset: -330,
    cpuArchitecture: os.cpu,
    fontFamily: 'Arial',
    deviceId: deviceIdFor(userAgent, seen.ip),
    browserInfo: {
      browserName: browser.name,
      os: os.os,
      osVersion: os.osVersion,
      device: os.mobile ? 'Mobile' : 'Desktop',
      browserMajorVersion: browser.fullVersion.split('.')[0] ?? '',
      browserFullVersion: browser.fullVersion,
      userAgent,
    },
  };
}
