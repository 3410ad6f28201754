import 'reflect-metadata';
import { HttpAdapterHost, NestFactory } from '@nestjs/core';
import type { INestApplication, LogLevel } from '@nestjs/common';
import type { NestExpressApplication } from '@nestjs/platform-express';
import cookieSession from 'cookie-session';
import passport from 'passport';
import { sessionCompat } from 'passport-otpless';
import { AppModule } from './app.module.js';
import type { NestExampleConfig } from './config.js';
import { OtplessErrorFilter } from './otpless-error.filter.js';

/** The Express middleware Nest runs before its routes: a session, and Passport reading it. */
export function configureApp(app: INestApplication, config: NestExampleConfig): void {
  app.use(cookieSession({ name: 'session', keys: config.sessionKeys, httpOnly: true, sameSite: 'lax' }));
  app.use(sessionCompat()); // the regenerate()/save() Passport 0.6+ calls, which cookie-session lacks
  app.use(passport.session());
  app.useGlobalFilters(new OtplessErrorFilter(app.get(HttpAdapterHost).httpAdapter));
}

/** The Nest app on Express, ready to `listen()`. */
export async function createApp(
  config: NestExampleConfig,
  logger: LogLevel[] | false = ['log', 'warn', 'error'],
): Promise<NestExpressApplication> {
  const app = await NestFactory.create<NestExpressApplication>(AppModule.register(config), { logger });
  configureApp(app, config);
  app.enableShutdownHooks();
  return app;
}
