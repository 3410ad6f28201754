import { optionError } from '../options.js';

/**
 * The app's look for the package's default pages, for apps that want them in their colours
 * without templates of their own (for full control, give `pages.render`).
 */
export interface PageTheme {
  /** The app's name, shown above each page's heading (and as the logo's text alternative). */
  name?: string;
  /** The logo: an https URL or a path on this site such as '/logo.svg'. Allowed by the pages' CSP. */
  logoUrl?: string;
  /** Colours as hex (`#2457d6`): buttons and links, the page around the card, the text. */
  colors?: { accent?: string; background?: string; text?: string };
}

const HEX = /^#(?:[0-9a-f]{3}|[0-9a-f]{6})$/i;

/**
 * Checks a theme once, at start-up; every value reaches CSS or HTML only after this. The theme
 * is copied and frozen: an object the app changes later changes no page.
 */
export function checkTheme(prefix: string, theme: unknown): Readonly<PageTheme> | undefined {
  if (theme === undefined) return undefined;
  if (typeof theme !== 'object' || theme === null) throw optionError(prefix, 'pages.theme', 'an object');
  // Read once: a getter could answer the check one value and the page another.
  const { name, logoUrl, colors } = theme as PageTheme;
  if (name !== undefined && (typeof name !== 'string' || name.length === 0 || name.length > 80)) {
    throw optionError(prefix, 'pages.theme.name', 'a string of 1 to 80 characters');
  }
  if (logoUrl !== undefined && imageSource(logoUrl) === undefined) {
    throw optionError(
      prefix,
      'pages.theme.logoUrl',
      "an https URL on a plain host name (letters, digits, dots, hyphens) or a path on this site, such as '/logo.svg'",
    );
  }
  let checked: PageTheme['colors'];
  if (colors !== undefined) {
    if (typeof colors !== 'object' || colors === null) throw optionError(prefix, 'pages.theme.colors', 'an object');
    const copy: Record<string, string> = {};
    for (const key of ['accent', 'background', 'text'] as const) {
      const value: unknown = colors[key];
      if (value === undefined) continue;
      if (typeof value !== 'string' || !HEX.test(value)) {
        throw optionError(prefix, `pages.theme.colors.${key}`, "a hex colour such as '#2457d6'");
      }
      copy[key] = value;
    }
    checked = Object.freeze(copy);
  }
  return Object.freeze({
    ...(name !== undefined ? { name } : {}),
    ...(logoUrl !== undefined ? { logoUrl } : {}),
    ...(checked !== undefined ? { colors: checked } : {}),
  });
}

/** A colour as it may be written into CSS: the value when it is hex, else the fallback. */
export function cssColor(value: unknown, fallback: string): string {
  return typeof value === 'string' && HEX.test(value) ? value : fallback;
}

/** A host name of letters, digits, dots and hyphens: nothing a CSP reads as syntax (`;`, `*`, `'`, space). */
const PLAIN_HOST = /^(?=.{1,253}$)(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)*[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;

/**
 * The CSP `img-src` the logo needs: `'self'` for a path, its origin for an https URL on a plain
 * host (no user, no wildcard, nothing that could end the directive and start another).
 */
export function imageSource(logoUrl: unknown): string | undefined {
  if (typeof logoUrl !== 'string' || logoUrl.length > 2048) return undefined;
  if (/^\/(?!\/)[^\\\s]*$/.test(logoUrl)) return "'self'";
  try {
    const url = new URL(logoUrl);
    if (url.protocol !== 'https:' || url.username !== '' || url.password !== '') return undefined;
    return PLAIN_HOST.test(url.hostname) ? url.origin : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Text on a coloured button must stay readable (WCAG AA): white on dark accents, near-black on
 * light ones, by the accent's relative luminance.
 */
export function textOn(hex: string): string {
  const full = hex.length === 4 ? [...hex.slice(1)].map((c) => c + c).join('') : hex.slice(1);
  const [r, g, b] = [0, 2, 4].map((i) => {
    const c = parseInt(full.slice(i, i + 2), 16) / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  }) as [number, number, number];
  const luminance = 0.2126 * r + 0.7152 * g + 0.0722 * b;
  // The contrast with white against the contrast with #111: whichever is higher.
  return 1.05 / (luminance + 0.05) >= (luminance + 0.05) / 0.0565 ? '#fff' : '#111';
}
