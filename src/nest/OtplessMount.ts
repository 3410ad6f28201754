import { Inject, Injectable } from '@nestjs/common';
import type { OnApplicationShutdown, OnModuleInit } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { LoginSetup } from '../login/compose.js';
import { setupOf } from '../login/compose.js';
import { optionsObject } from '../options.js';
import { fastifyRoutes } from '../routes/fastify.js';
import type { FastifyHooks } from '../routes/fastify.js';
import { createMount } from '../routes/mount.js';
import type { Mount } from '../routes/mount.js';
import { OTPLESS_MODULE_OPTIONS } from './options.js';
import type { OtplessModuleOptions } from './options.js';

const OWNER = 'OtplessModule';

/** The part of Nest's HTTP adapter the mount uses. */
interface AdapterLike {
  getType(): string;
  getInstance(): unknown;
}

/**
 * The one mount inside a Nest app: built (and every option checked) when the module is created,
 * mounted on Nest's HTTP adapter once the app's own routes are registered. On
 * @nestjs/platform-express it is `magicLinkRoutes()`'s middleware; on @nestjs/platform-fastify
 * the same routes are Fastify routes, so every answer goes through the reply and the session
 * plugin's `onSend` hook writes the cookie. Errors go to Nest's exception filters on both.
 */
export class OtplessMount implements OnModuleInit, OnApplicationShutdown {
  /** The strategy's setup: its pages (theme, render hook, locales) and its client. */
  readonly setup: LoginSetup;
  /** The mount's routes, with their paths (`routes.paths.signIn` ...). */
  readonly mount: Mount;

  constructor(
    options: OtplessModuleOptions,
    private readonly adapterHost: HttpAdapterHost,
  ) {
    const given = optionsObject<OtplessModuleOptions>(
      `${OWNER}.forRoot()`,
      options,
      'an object with strategy and passport',
    );
    const { strategy, ...routes } = given;
    this.setup = setupOf(`${OWNER}.forRoot()`, strategy);
    this.mount = createMount(`${OWNER}.forRoot()`, strategy, routes);
  }

  /** Runs after Nest registered the app's routes (they come first) and before its 404 handler. */
  onModuleInit(): void {
    const adapter = this.adapterHost.httpAdapter as AdapterLike | undefined;
    const type = adapter?.getType();
    if (adapter && type === 'express') {
      const app = adapter.getInstance() as { use(handler: Mount['middleware'] | Mount['bodyErrors']): unknown };
      app.use(this.mount.middleware);
      // Nest parses JSON bodies before the mount: one it could not read still gets the mount's answer.
      app.use(this.mount.bodyErrors);
      return;
    }
    if (adapter && type === 'fastify') {
      (adapter.getInstance() as FastifyHooks).register(fastifyRoutes(this.mount.routes));
      return;
    }
    throw new TypeError(
      `${OWNER}: the app must run on @nestjs/platform-express or @nestjs/platform-fastify (this one runs on ${type ?? 'no HTTP adapter'})`,
    );
  }

  /** The strategy's client keeps connections to the service open: they close with the app. */
  onApplicationShutdown(): Promise<void> {
    return this.setup.client.close();
  }
}

// Decorators as plain calls: the package is built without decorator metadata, so every
// constructor parameter names its token.
Injectable()(OtplessMount);
Inject(OTPLESS_MODULE_OPTIONS)(OtplessMount, undefined, 0);
Inject(HttpAdapterHost)(OtplessMount, undefined, 1);
