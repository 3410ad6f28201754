// Types of app.mjs, for TypeScript callers (the tests).
import type { Server } from 'node:http';
import type { Express } from 'express';
// The package's own types, from source so that typechecking does not need dist/ built.
import type { MagicLinkStrategy } from '../../src/index.js';

export interface AppOptions {
  otpless: { clientId: string; clientSecret: string; authUrl?: string; userAuthUrl?: string };
  callbackUrl: string;
  redisUrl: string;
  sessionSecret: string;
  instance?: string;
  log?: (line: string) => void;
}

export interface CreatedApp {
  app: Express;
  strategy: MagicLinkStrategy;
  close(): Promise<void>;
}

export declare function createApp(options: AppOptions): Promise<CreatedApp>;
export declare function listen(port?: number, host?: string): Promise<{ server: Server; url: string }>;
