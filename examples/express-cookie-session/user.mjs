// What the app keeps of a login. With cookie-session the whole session travels in a cookie
// (about 4 KB at most), so only what the pages show is kept: no raw answers, no token.

/**
 * Builds the session user from the strategy's `MagicLinkProfile`. The reasons of the risk
 * verdict are kept only when the pages show them (demo mode): in a cookie anyone holding it can
 * read them, and they would tell which signal to hide. A real app logs them instead.
 */
export function toSessionUser(profile, { keepReasons = false } = {}) {
  const email = profile.emails.find((e) => e.verified)?.value;
  const phone = profile.phoneNumbers.find((p) => p.verified)?.value;
  return {
    id: profile.id,
    name: profile.displayName || email || phone || 'there',
    identities: profile.identities.map((identity) => ({
      type: identity.type,
      value: identity.value,
      verified: identity.verified,
      verifiedAt: identity.verifiedAt?.toISOString(),
    })),
    device: summarizeDevice(profile.device),
    network: summarizeNetwork(profile.network),
    risk: profile.risk && {
      action: profile.risk.action,
      ...(keepReasons
        ? {
            reasons: profile.risk.reasons.map(({ signal, action, detail }) => ({
              signal,
              action,
              ...(detail ? { detail } : {}),
            })),
          }
        : {}),
    },
    signedInAt: new Date().toISOString(),
  };
}

function summarizeDevice(device) {
  if (!device) return {};
  const browser = device.browserInfo ?? {};
  const version = browser.browserMajorVersion ? ` ${browser.browserMajorVersion}` : '';
  return compact({
    browser: browser.browserName ? `${browser.browserName}${version}` : device.browser,
    os: [browser.os, browser.osVersion].filter(Boolean).join(' ') || undefined,
    platform: device.platform,
    screen: device.screenWidth && device.screenHeight ? `${device.screenWidth} × ${device.screenHeight}` : undefined,
    language: device.language,
  });
}

function summarizeNetwork(network) {
  if (!network) return {};
  const location = network.ipLocation ?? {};
  return compact({
    ip: network.ip,
    city: location.city?.name,
    country: location.country?.name,
    provider: location.asn?.name,
    timezone: network.timezone,
  });
}

function compact(object) {
  return Object.fromEntries(Object.entries(object).filter(([, value]) => value !== undefined && value !== ''));
}
