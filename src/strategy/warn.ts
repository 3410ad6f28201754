/** Keys already warned about in this process. */
const warned = new Set<string>();

/**
 * Tells the operator about a setup problem once per process (per `key`), through
 * `process.emitWarning` with type `PassportOtplessWarning`: it shows on stderr by default and
 * reaches `process.on('warning')`. The message must hold no secret, code or token.
 *
 * @returns true when this call emitted the warning
 * @example
 * process.on('warning', (w) => { if (w.name === 'PassportOtplessWarning') log.error(w.message) });
 */
export function warnOnce(key: string, message: string, code = 'OTPLESS_SETUP'): boolean {
  if (warned.has(key)) return false;
  warned.add(key);
  process.emitWarning(message, { type: 'PassportOtplessWarning', code });
  return true;
}
