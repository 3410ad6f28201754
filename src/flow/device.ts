/** A short description of a browser, for the approval page ("Chrome on Windows"). */
export interface DeviceSummary {
  browser?: string;
  os?: string;
}

// Plain substring tests on a capped header: no regular expression can backtrack on a long one.
const MAX_USER_AGENT = 512;
const BROWSERS: ReadonlyArray<[string, string]> = [
  ['Edg/', 'Edge'],
  ['EdgiOS/', 'Edge'],
  ['OPR/', 'Opera'],
  ['SamsungBrowser/', 'Samsung Internet'],
  ['Firefox/', 'Firefox'],
  ['FxiOS/', 'Firefox'],
  ['CriOS/', 'Chrome'],
  ['Chrome/', 'Chrome'],
  ['Safari/', 'Safari'],
];
const SYSTEMS: ReadonlyArray<[string, string]> = [
  ['Android', 'Android'],
  ['iPhone', 'iOS'],
  ['iPad', 'iPadOS'],
  ['Windows', 'Windows'],
  ['Mac OS X', 'macOS'],
  ['CrOS', 'ChromeOS'],
  ['Linux', 'Linux'],
];

/** What a User-Agent header says of the browser and system, when it says anything we know. */
export function summarizeDevice(userAgent: unknown): DeviceSummary {
  // An empty header names nothing, as any other without a known token does.
  if (typeof userAgent !== 'string') return {};
  const ua = userAgent.slice(0, MAX_USER_AGENT);
  const summary: DeviceSummary = {};
  const browser = BROWSERS.find(([token]) => ua.includes(token));
  if (browser) summary.browser = browser[1];
  const os = SYSTEMS.find(([token]) => ua.includes(token));
  if (os) summary.os = os[1];
  return summary;
}
