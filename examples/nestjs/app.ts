import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import type { LogLevel } from '@nestjs/common';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { FastifyAdapter } from '@nestjs/platform-fastify';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import fastifyCookie from '@fastify/cookie';
import fastifySession from '@fastify/session';
import type { FastifyServerOptions } from 'fastify';
import cookieSession from 'cookie-session';
import { Passport } from 'passport';
import { sessionCompat } from 'passport-otpless';
import { AppModule } from './app.module.js';
import type { NestExampleConfig } from './config.js';

type Logger = LogLevel[] | false;

/** The app's Passport: the (small) user itself goes in the session. */
function newPassport(): InstanceType<typeof Passport> {
  const passport = new Passport();
  passport.serializeUser((user: Express.User, done) => done(null, user));
  passport.deserializeUser((user: Express.User, done) => done(null, user));
  return passport;
}

/** The Nest app on Express with cookie-session, ready to `listen()`. */
export async function createApp(config: NestExampleConfig, logger: Logger = ['log', 'warn', 'error']) {
  const passport = newPassport();
  const app = await NestFactory.create<NestExpressApplication>(AppModule.register(config, passport), { logger });
  app.use(cookieSession({ name: 'session', keys: config.sessionKeys, httpOnly: true, sameSite: 'lax' }));
  app.use(sessionCompat()); // the regenerate()/save() Passport 0.6+ calls, which cookie-session lacks
  app.use(passport.session());
  return app.enableShutdownHooks();
}

/** The same module on Fastify with @fastify/session; Passport reads the session in a preHandler hook. */
export async function createFastifyApp(
  config: NestExampleConfig,
  logger: Logger = ['log', 'warn', 'error'],
  serverFactory?: FastifyServerOptions['serverFactory'],
) {
  const passport = newPassport();
  const adapter = new FastifyAdapter(serverFactory ? { serverFactory } : {});
  const app = await NestFactory.create<NestFastifyApplication>(AppModule.register(config, passport), adapter, {
    logger,
  });
  await app.register(fastifyCookie);
  await app.register(fastifySession, {
    secret: config.sessionKeys[0]!, // main.ts always gives one key
    // `secure` cookies never reach the browser over http: only over https.
    cookie: { secure: config.callbackUrl.startsWith('https:'), httpOnly: true, sameSite: 'lax', path: '/' },
    saveUninitialized: false,
    // Not re-saved and re-sent on every request: the waiting page's poll, answered after the
    // login, would put the session from before the login back in the browser.
    rolling: false,
  });
  const session = passport.session() as (req: unknown, res: unknown, next: (err?: Error) => void) => void;
  app
    .getHttpAdapter()
    .getInstance()
    .addHook('preHandler', (request, reply, done) => session(request, reply, done));
  return app.enableShutdownHooks();
}
