// Types of app.mjs, for TypeScript callers (the tests).
import type { Express } from 'express';
import type { MagicLinkStrategy, SendLimitsOptions } from '../../src/index.js';

export interface AppOptions {
  otpless: { clientId: string; clientSecret: string; authUrl?: string; userAuthUrl?: string };
  origin: string;
  sessionKeys: string[];
  limits?: SendLimitsOptions | false;
  log?: (line: string) => void;
}

export declare function createApp(options: AppOptions): {
  app: Express;
  strategy: MagicLinkStrategy;
  close(): Promise<void>;
};
