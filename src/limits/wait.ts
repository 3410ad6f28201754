/**
 * How long to wait, in words a person understands, rounded up so that trying again at that
 * time works: "12 seconds", "3 minutes", "2 hours".
 *
 * @example
 * waitInWords(150) // '3 minutes'
 */
export function waitInWords(seconds: number): string {
  const s = Math.max(1, Math.ceil(seconds));
  if (s < 60) return plural(s, 'second');
  if (s < 90 * 60) return plural(Math.ceil(s / 60), 'minute');
  return plural(Math.ceil(s / 3600), 'hour');
}

function plural(n: number, unit: string): string {
  return `${n} ${unit}${n === 1 ? '' : 's'}`;
}
