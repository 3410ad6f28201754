/** Codes already warned about in this process. */
const warned = new Set<string>();

/**
 * Tells the operator about a setup problem once per process (per `code`, one of the
 * `OTPLESS_*` codes of docs/codes.md), through `process.emitWarning` with type
 * `PassportOtplessWarning` and that code: it shows on stderr by default and reaches
 * `process.on('warning')`. The message must hold no secret, code or token.
 *
 * @returns true when this call emitted the warning
 * @example
 * process.on('warning', (w) => { if (w.name === 'PassportOtplessWarning') log.error(w.message) });
 */
export function warnOnce(code: string, message: string): boolean {
  if (warned.has(code)) return false;
  warned.add(code);
  process.emitWarning(message, { type: 'PassportOtplessWarning', code });
  return true;
}
