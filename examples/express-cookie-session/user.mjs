// What the app keeps of a login. With cookie-session the whole session travels in a cookie
// (about 4 KB at most), so only what the pages show is kept: no raw answers, no token.

/**
 * Builds the session user from the strategy's `MagicLinkProfile`. The reasons of the risk
 * verdict are kept only when the pages show them (demo mode): in a cookie anyone holding it can
 * read them, and they would tell which signal to hide. A real app logs them instead. What is
 * always kept is the verdict's cause class (see `riskCause`), which picks the page's wording.
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
      ...(profile.risk.action !== 'allow' ? { cause: riskCause(profile.risk) } : {}),
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

/**
 * Why a verdict is not `allow`, in the two classes a person is told about (never which signal):
 *
 * - `'unchecked'`: every reason that decided the verdict is a signal that did not come
 *   (`missing`), could not be read (`malformed`), or had a value the library does not know (a
 *   bot result other than notDetected/good/bad). The check could not be done; nothing bad was seen.
 * - `'flagged'`: at least one deciding reason is a real signal that raised it (a VPN, a bot,
 *   tampering ...).
 *
 * Reasons that asked for a milder action than the verdict's did not decide it and are ignored:
 * a blocking missing signal with a VPN challenge is `'unchecked'`.
 *
 * @param {{ action: import('passport-otpless').RiskAction, reasons?: import('passport-otpless').RiskReason[] }} verdict
 * @returns {'unchecked' | 'flagged' | undefined} `undefined` for `allow`
 */
export function riskCause(verdict) {
  if (!verdict || verdict.action === 'allow') return undefined;
  const deciding = (verdict.reasons ?? []).filter((reason) => reason.action === verdict.action);
  return deciding.length > 0 && deciding.every(isUnchecked) ? 'unchecked' : 'flagged';
}

function isUnchecked({ signal, detail }) {
  return signal === 'missing' || signal === 'malformed' || (signal === 'bot' && detail === 'unknown');
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
