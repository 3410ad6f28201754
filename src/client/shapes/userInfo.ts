import type { AuthenticationDetailsEmail, AuthenticationDetailsPhone, UserInfo } from '../../wire/types.js';
import { boolean, object, refine, string } from './check.js';

const phone = object<AuthenticationDetailsPhone>(
  {},
  { mode: string, phone_number: string, country_code: string, auth_state: string },
);
const email = object<AuthenticationDetailsEmail>({}, { email: string, mode: string, auth_state: string });

const fields = object<UserInfo>(
  {},
  {
    name: string,
    email: string,
    first_name: string,
    last_name: string,
    family_name: string,
    phone_number: string,
    national_phone_number: string,
    country_code: string,
    email_verified: boolean,
    auth_time: string,
    authentication_details: object<NonNullable<UserInfo['authentication_details']>>({}, { phone, email }),
  },
);

/**
 * User info: every field is optional in the wire type, but an answer naming neither an e-mail
 * nor a phone number identifies nobody, so at least one of the two must be a non-empty string.
 */
export const userInfo = refine(
  fields,
  (u) =>
    (typeof u.email === 'string' && u.email !== '') || (typeof u.phone_number === 'string' && u.phone_number !== ''),
  'an object with email or phone_number',
);
