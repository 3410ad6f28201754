import { warnOnce } from '../errors/warnings.js';

/**
 * `crossDevice: 'accept'` without `confirm`: a mail scanner that opens the link (a GET) is
 * signed in itself, spending the code, since neither the approval page of `'handoff'` nor the
 * button of `confirm` stands between a GET and a login. Told once, when such a strategy is made.
 */
export function warnIfScannersSignIn(options: { crossDevice: string; confirm: boolean }): void {
  if (options.crossDevice !== 'accept' || options.confirm) return;
  warnOnce('OTPLESS_SCANNER_SIGNS_IN');
}
