import { Injectable } from '@nestjs/common';
import { PassportSerializer } from '@nestjs/passport';
import type { AppUser } from './users.js';

type Done = (err: unknown, user?: AppUser) => void;

/** The whole (small) user goes in the session cookie; an app with a database would keep the id. */
@Injectable()
export class SessionSerializer extends PassportSerializer {
  serializeUser(user: AppUser, done: Done): void {
    done(null, user);
  }

  deserializeUser(user: AppUser, done: Done): void {
    done(null, user);
  }
}
