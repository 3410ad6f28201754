/**
 * The service sends mobile numbers as digits with the country code and no plus sign; the
 * profile uses E.164 (`+` and digits) everywhere so apps can compare numbers as they store them.
 */
export function toE164(value: string): string {
  const digits = value.startsWith('+') ? value.slice(1) : value;
  return `+${digits}`;
}
