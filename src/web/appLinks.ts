/**
 * The "Open WhatsApp" button of the waiting page: which `destinationUri` (spec 2.1, the
 * service's own number on the messaging channel) the package may put in a page. Only a link of
 * a scheme and host the service's documentation shows as its own is used, rebuilt from its
 * parts: the page never echoes a URI the service (or anyone between) sent.
 *
 * The one documented shape is WhatsApp's click-to-chat link, `https://wa.me/<digits>`
 * (service-facts.md: the send's example answer carries `https://wa.me/911141169439`). No SMS
 * or Viber link is documented, so none gets a button. To allow another, add it here, with its
 * source, and to test/web/appLinks.test.ts.
 */
export const SERVICE_APP_LINKS = [
  {
    channel: 'WHATSAPP',
    protocol: 'https:',
    host: 'wa.me',
    /** The service's business number: digits only, as E.164 without `+`. */
    path: /^\/(\d{6,15})$/,
    source: 'service-facts.md, the send example answer',
  },
] as const;

/** A channel the package can name a messaging app for. */
export type AppLinkChannel = (typeof SERVICE_APP_LINKS)[number]['channel'];

/** A link into the messaging app, as the waiting page draws it. */
export interface AppLink {
  channel: AppLinkChannel;
  /** Rebuilt from the parts checked, never the string received. */
  href: string;
}

const MAX_URI_LENGTH = 200;

/**
 * The link to put on the page for a `destinationUri`, or `undefined` when it is not one of
 * `SERVICE_APP_LINKS` (any other scheme, host, port, user, query or fragment).
 *
 * @example
 * serviceAppLink('https://wa.me/911141169439') // { channel: 'WHATSAPP', href: 'https://wa.me/911141169439' }
 * serviceAppLink('https://wa.me.evil.example/1') // undefined
 */
export function serviceAppLink(uri: unknown): AppLink | undefined {
  if (typeof uri !== 'string' || uri.length > MAX_URI_LENGTH) return undefined;
  let url: URL;
  try {
    url = new URL(uri);
  } catch {
    return undefined;
  }
  if (url.username || url.password || url.port || url.search || url.hash) return undefined;
  for (const allowed of SERVICE_APP_LINKS) {
    if (url.protocol !== allowed.protocol || url.hostname !== allowed.host) continue;
    const digits = allowed.path.exec(url.pathname)?.[1];
    if (digits !== undefined)
      return { channel: allowed.channel, href: `${allowed.protocol}//${allowed.host}/${digits}` };
  }
  return undefined;
}

/**
 * True for a phone's browser (where the messaging app is), by its User-Agent: an iPhone, an
 * iPod, or Android with `Mobile` (Android tablets leave it out). Plain substring tests on a
 * capped header, as flow/device.ts does.
 */
export function isPhoneBrowser(userAgent: unknown): boolean {
  if (typeof userAgent !== 'string') return false;
  const ua = userAgent.slice(0, 512);
  return ua.includes('iPhone') || ua.includes('iPod') || (ua.includes('Android') && ua.includes('Mobile'));
}
