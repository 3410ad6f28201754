import type { DeliveryMethod, DeviceInfo, IdentityType, IpLocation, Network } from '../wire/types.js';
import type { BrowserSeen } from './device.js';
import type { RiskScenario } from './scenarios.js';
import type { OutboxEntry } from './types.js';

/** One verified (or to-be-verified) identity of a login. */
export interface LoginIdentity {
  readonly type: IdentityType;
  /** Mobile: digits with country code. E-mail: lower case. */
  readonly value: string;
  readonly method: DeliveryMethod;
}

/** Set when the login completes (code verified, or issueToken). */
export interface Completion {
  readonly token: string;
  readonly completedAt: number;
  readonly tokenExpiresAt: number;
  readonly device: DeviceInfo;
  readonly network: Network & { ipLocation: IpLocation };
  /** Identity types answered with `verified: false` (emulator.nextLogin, issueToken). */
  readonly unverified: ReadonlySet<IdentityType>;
}

/**
 * One login: created per channel by send magic link (pending), clicked (has a code), then
 * completed by verify code; or created completed by issueToken.
 */
export interface Login {
  readonly clientId: string;
  readonly requestId: string;
  readonly sessionToken: string;
  readonly userId: string;
  readonly identities: readonly LoginIdentity[];
  readonly createdAt: number;
  /** Absent on issueToken logins, which have no link (so present means "completed by verify-code"). */
  readonly link?: { readonly id: string; readonly redirectUri: string; readonly expiresAt: number };
  code?: string;
  codeUsed: boolean;
  scenario: RiskScenario;
  seen: BrowserSeen;
  completion?: Completion;
  lastActiveAt: number;
  /** Serialized answers that never change once completed (userInfo is the hot path). */
  readonly cache: { userInfo?: string };
}

export interface StoreLimits {
  /** Most logins kept; the oldest is forgotten first. */
  maxLogins: number;
  /** Most outbox entries kept; the oldest is dropped first. */
  maxOutbox: number;
  /** A completed session stays valid this long after its last use. */
  sessionIdleMs: number;
}

// Expired records stay this long (emulator clock) so a late call still hears "expired"
// rather than "unknown"; after that they are swept.
const SWEEP_GRACE_MS = 60 * 60 * 1000;
// Sweeping scans every login: do it at most this often, on writes (the only way the store grows).
const SWEEP_EVERY_MS = 10 * 1000;

interface OutboxRecord {
  readonly entry: OutboxEntry;
  readonly login: Login;
}

/** All emulator state, bounded: counts are capped and expired records are swept on writes. */
export class Store {
  // Keyed by session token, which every login has; Map order is creation order.
  private readonly logins = new Map<string, Login>();
  private readonly byLink = new Map<string, Login>();
  private readonly byCode = new Map<string, Login>();
  private readonly byToken = new Map<string, Login>();
  private sent: OutboxRecord[] = [];
  private lost: OutboxEntry[] = [];
  private lastSweepAt = 0;

  constructor(private readonly limits: StoreLimits) {}

  /** Adds a login (pending or completed) and sweeps when due. */
  add(login: Login, now: number): void {
    this.sweepIfDue(now);
    this.logins.set(login.sessionToken, login);
    if (login.link) this.byLink.set(login.link.id, login);
    if (login.completion) this.byToken.set(login.completion.token, login);
    while (this.logins.size > this.limits.maxLogins) {
      const oldest = this.logins.values().next().value;
      if (!oldest) break;
      this.forget(oldest);
    }
  }

  addOutbox(entry: OutboxEntry, login: Login): void {
    this.sent.push({ entry, login });
    if (this.sent.length > this.limits.maxOutbox) this.sent = this.sent.slice(-this.limits.maxOutbox);
  }

  /** A message the `notDelivered` fault lost: shown in the dev inbox, never in the outbox. */
  addNotDelivered(entry: OutboxEntry): void {
    this.lost.push(entry);
    if (this.lost.length > this.limits.maxOutbox) this.lost = this.lost.slice(-this.limits.maxOutbox);
  }

  /** Messages lost on their way, oldest first. */
  notDelivered(): readonly OutboxEntry[] {
    return this.lost;
  }

  /** Outbox entries with their logins, oldest first. */
  outbox(): readonly OutboxRecord[] {
    return this.sent;
  }

  findByLink(linkId: string): Login | undefined {
    return this.byLink.get(linkId);
  }

  findByCode(code: string): Login | undefined {
    return this.byCode.get(code);
  }

  findByToken(token: string): Login | undefined {
    return this.byToken.get(token);
  }

  findBySessionToken(sessionToken: string): Login | undefined {
    return this.logins.get(sessionToken);
  }

  /** Gives the login its code (once; later clicks keep the same code). */
  assignCode(login: Login, code: string): string {
    if (login.code === undefined) {
      login.code = code;
      this.byCode.set(code, login);
    }
    return login.code;
  }

  complete(login: Login, completion: Completion): void {
    login.completion = completion;
    login.lastActiveAt = completion.completedAt;
    this.byToken.set(completion.token, login);
  }

  /** When the session of a completed login expires (sliding with use). */
  sessionExpiresAt(login: Login): number {
    return login.lastActiveAt + this.limits.sessionIdleMs;
  }

  clear(): void {
    this.logins.clear();
    this.byLink.clear();
    this.byCode.clear();
    this.byToken.clear();
    this.sent = [];
    this.lost = [];
  }

  private deadAt(login: Login): number {
    if (!login.completion) return login.link?.expiresAt ?? login.createdAt;
    return Math.max(login.completion.tokenExpiresAt, this.sessionExpiresAt(login));
  }

  private sweepIfDue(now: number): void {
    if (now - this.lastSweepAt < SWEEP_EVERY_MS) return;
    this.lastSweepAt = now;
    for (const login of this.logins.values()) {
      if (this.deadAt(login) + SWEEP_GRACE_MS < now) this.forget(login);
    }
  }

  private forget(login: Login): void {
    this.logins.delete(login.sessionToken);
    if (login.link) this.byLink.delete(login.link.id);
    if (login.code !== undefined) this.byCode.delete(login.code);
    if (login.completion) this.byToken.delete(login.completion.token);
  }
}
