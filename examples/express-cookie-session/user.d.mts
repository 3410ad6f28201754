// Types of user.mjs, for TypeScript callers (the tests).
import type { MagicLinkProfile, RiskAction, RiskReason } from '../../src/index.js';

export type RiskCause = 'unchecked' | 'flagged';

export interface SessionUser {
  id: string;
  name: string;
  identities: Array<{ type: string; value: string; verified: boolean; verifiedAt?: string }>;
  device: Record<string, string>;
  network: Record<string, string>;
  risk?: { action: RiskAction; cause?: RiskCause; reasons?: Array<Pick<RiskReason, 'signal' | 'action' | 'detail'>> };
  signedInAt: string;
}

export declare function toSessionUser(profile: MagicLinkProfile, options?: { keepReasons?: boolean }): SessionUser;
export declare function riskCause(verdict: {
  action: RiskAction;
  reasons?: ReadonlyArray<Pick<RiskReason, 'signal' | 'action' | 'detail'>>;
}): RiskCause | undefined;
