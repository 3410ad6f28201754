import 'reflect-metadata';
import { HttpAdapterHost, NestFactory } from '@nestjs/core';
import type { INestApplication, LogLevel } from '@nestjs/common';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { FastifyAdapter } from '@nestjs/platform-fastify';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import fastifyCookie from '@fastify/cookie';
import fastifySession from '@fastify/session';
import type { FastifyServerOptions } from 'fastify';
import cookieSession from 'cookie-session';
import passport from 'passport';
import { otplessFastify, sessionCompat } from 'passport-otpless';
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

/**
 * The same module on @nestjs/platform-fastify. @nestjs/passport drives Passport itself (not
 * @fastify/passport), which needs a session with callback-style `regenerate()` and `save()`:
 * @fastify/session has them (Nest parses JSON and forms itself). `otplessFastify()` lets the
 * strategy reach the reply, and Passport
 * reads the session in a preHandler hook, where the Fastify request already has it.
 */
export async function createFastifyApp(
  config: NestExampleConfig,
  logger: LogLevel[] | false = ['log', 'warn', 'error'],
  serverFactory?: FastifyServerOptions['serverFactory'],
): Promise<NestFastifyApplication> {
  const adapter = new FastifyAdapter(serverFactory ? { serverFactory } : {});
  const app = await NestFactory.create<NestFastifyApplication>(AppModule.register(config), adapter, { logger });
  await app.register(fastifyCookie);
  await app.register(fastifySession, {
    secret: config.sessionKeys[0]!, // main.ts always gives one key
    cookie: { secure: config.callbackUrl.startsWith('https:'), httpOnly: true, sameSite: 'lax', path: '/' },
    saveUninitialized: false,
  });
  await app.register(otplessFastify());
  const session = passport.session() as (req: unknown, res: unknown, next: (err?: unknown) => void) => void;
  app
    .getHttpAdapter()
    .getInstance()
    .addHook('preHandler', (request, reply, done) => session(request, reply, (err) => done(err as Error | undefined)));
  app.useGlobalFilters(new OtplessErrorFilter(app.get(HttpAdapterHost).httpAdapter));
  app.enableShutdownHooks();
  return app;
}
