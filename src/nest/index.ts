// passport-otpless/nest: the one mount, the guards and the exception filter as a NestJS module.
// @nestjs/common and @nestjs/core are optional peers: only this entry imports them.
export { OtplessModule } from './OtplessModule.js';
export { OtplessMount } from './OtplessMount.js';
export { OtplessExceptionFilter } from './OtplessExceptionFilter.js';
export { LowRiskGuard, IdentityGuard } from './guards.js';
export type { OtplessModuleOptions, OtplessModuleAsyncOptions } from './options.js';
