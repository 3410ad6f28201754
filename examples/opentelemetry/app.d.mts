import type { Meter, Tracer } from '@opentelemetry/api';
import type { Express } from 'express';

export function createApp(options: {
  otpless: object;
  callbackUrl: string;
  sessionSecret: string;
  tracer: Tracer;
  meter: Meter;
}): { app: Express; close(): Promise<void> };
