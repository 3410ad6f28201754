// The sign-in form has one field for an e-mail address or a mobile number; `strategy.send()`
// reads `email` or `mobile`. These helpers decide which one the person typed.

/** `{ email }` when the text looks like an address, `{ mobile }` otherwise, `{}` when empty. */
export function splitContact(text) {
  const value = typeof text === 'string' ? text.trim() : '';
  if (value === '') return {};
  return value.includes('@') ? { email: value } : { mobile: value };
}

/**
 * One key per destination, however it was typed: e-mail in lower case, a mobile number as
 * its digits (`+1 (415) 555-0123` and `14155550123` are the same phone).
 */
export function destinationKey(text) {
  const { email, mobile } = splitContact(text);
  if (email) return `email:${email.toLowerCase()}`;
  if (mobile) return `mobile:${mobile.replace(/\D/g, '')}`;
  return undefined;
}

/** `jane.doe@example.com` -> `ja•••@example.com`, `+14155550123` -> `••••••••0123`: enough to recognise. */
export function maskContact(text) {
  const { email, mobile } = splitContact(text);
  if (email) {
    const at = email.lastIndexOf('@');
    const local = email.slice(0, at);
    return `${local.slice(0, Math.min(2, Math.max(1, local.length - 1)))}•••${email.slice(at)}`;
  }
  if (mobile) {
    const digits = mobile.replace(/\D/g, '');
    return `${'•'.repeat(Math.max(0, digits.length - 4))}${digits.slice(-4)}`;
  }
  return '';
}
