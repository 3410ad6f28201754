import type { MagicLinkProfile } from 'passport-otpless';

/** The user kept in the session: small, since cookie-session keeps it in a cookie. */
export interface AppUser {
  id: string;
  email?: string;
  phone?: string;
}

/** Maps a verified magic-link profile to a user of the app, or `null` to refuse the login. */
export interface UserDirectory {
  signIn(profile: MagicLinkProfile): Promise<AppUser | null>;
}

/** Everyone may sign in except the addresses in `blocked`. */
export class MemoryUserDirectory implements UserDirectory {
  constructor(private readonly blocked: ReadonlySet<string> = new Set()) {}

  async signIn(profile: MagicLinkProfile): Promise<AppUser | null> {
    const email = profile.emails[0]?.value;
    const phone = profile.phoneNumbers[0]?.value;
    if ((email && this.blocked.has(email)) || (phone && this.blocked.has(phone))) return null;
    return { id: profile.id, ...(email ? { email } : {}), ...(phone ? { phone } : {}) };
  }
}
