const warned = new Set<string>();

/**
 * Tells the operator once per process (a Node warning, so it reaches the app's own logging):
 * setup problems and broken assumptions about the service, never a secret, code or token.
 */
export function warnOnce(code: string, message: string): void {
  if (warned.has(code)) return;
  warned.add(code);
  process.emitWarning(message, { type: 'PassportOtplessWarning', code });
}
