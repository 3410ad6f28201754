/**
 * How long to wait, in words a person understands, rounded up so that trying again at that
 * time works: "12 seconds", "3 minutes", "2 hours"; in `locale` (a BCP 47 tag, English by
 * default) through `Intl.NumberFormat`'s units: "3 minutos", "3 मिनट".
 *
 * @example
 * waitInWords(150) // '3 minutes'
 * waitInWords(150, 'es') // '3 minutos'
 */
export function waitInWords(seconds: number, locale = 'en'): string {
  const s = Math.max(1, Math.ceil(seconds));
  if (s < 60) return inUnit(s, 'second', locale);
  if (s < 90 * 60) return inUnit(Math.ceil(s / 60), 'minute', locale);
  return inUnit(Math.ceil(s / 3600), 'hour', locale);
}

function inUnit(n: number, unit: 'second' | 'minute' | 'hour', locale: string): string {
  try {
    return new Intl.NumberFormat(locale, { style: 'unit', unit, unitDisplay: 'long' }).format(n);
  } catch {
    // A tag Intl cannot read (an app's own catalogue under an odd name): English.
    return new Intl.NumberFormat('en', { style: 'unit', unit, unitDisplay: 'long' }).format(n);
  }
}
