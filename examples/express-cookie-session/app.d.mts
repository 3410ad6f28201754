// Types of app.mjs, for TypeScript callers (the tests).
import type { Server } from 'node:http';
import type { Express } from 'express';
// The package's own types, from source so that typechecking does not need dist/ built.
import type { CountryCode, MagicLinkStrategy, SendLimitsOptions } from '../../src/index.js';

export interface AppOptions {
  otpless: { clientId: string; clientSecret: string; authUrl?: string; userAuthUrl?: string };
  callbackUrl: string;
  sessionKeys: string[];
  devInboxUrl?: string;
  limits?: SendLimitsOptions | false;
  defaultCountry?: CountryCode;
  trustProxy?: boolean | number | string;
  log?: (line: string) => void;
}

export interface CreatedApp {
  app: Express;
  strategy: MagicLinkStrategy;
  close(): Promise<void>;
}

export interface StartedApp extends CreatedApp {
  url: string;
  server: Server;
  portWasBusy: boolean;
}

export interface StartOptions extends Omit<AppOptions, 'callbackUrl'> {
  port?: number;
  host?: string;
  fallbackToFreePort?: boolean;
  callbackUrl?: string;
}

export declare const EMULATOR_LIMITS: Readonly<SendLimitsOptions>;
export declare function createApp(options: AppOptions): CreatedApp;
export declare function startApp(options: StartOptions): Promise<StartedApp>;
