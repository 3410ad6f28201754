// The sign-in form has one field for an e-mail address or a mobile number; `strategy.send()`
// reads `email` or `mobile`. These helpers decide which one the person typed.

/** `{ email }` when the text looks like an address, `{ mobile }` otherwise, `{}` when empty. */
export function splitContact(text) {
  const value = typeof text === 'string' ? text.trim() : '';
  if (value === '') return {};
  return value.includes('@') ? { email: value } : { mobile: value };
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
