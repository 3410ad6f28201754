import { Module } from '@nestjs/common';
import type { DynamicModule } from '@nestjs/common';
import { PassportModule } from '@nestjs/passport';
import { AccountController } from './account.controller.js';
import { AuthController } from './auth.controller.js';
import { CONFIG, USERS } from './config.js';
import type { NestExampleConfig } from './config.js';
import { MagicLinkAuthStrategy } from './magic-link.strategy.js';
import { SessionSerializer } from './session.serializer.js';
import { MemoryUserDirectory } from './users.js';

@Module({})
export class AppModule {
  static register(config: NestExampleConfig): DynamicModule {
    return {
      module: AppModule,
      imports: [PassportModule.register({ session: true })],
      controllers: [AuthController, AccountController],
      providers: [
        { provide: CONFIG, useValue: config },
        { provide: USERS, useValue: config.users ?? new MemoryUserDirectory() },
        MagicLinkAuthStrategy,
        SessionSerializer,
      ],
    };
  }
}
