// passport-otpless/nest: the one mount, the guards and the exception filter as a NestJS module.
// @nestjs/common and @nestjs/core are optional peers: only this entry imports them.
export { OtplessModule } from './OtplessModule.js';
export { OtplessMount } from './OtplessMount.js';
export { OtplessExceptionFilter } from './OtplessExceptionFilter.js';
export { LowRiskGuard, IdentityGuard, runGuard } from './guards.js';
export { OTPLESS_MODULE_OPTIONS } from './options.js';
export type { OtplessModuleOptions, OtplessModuleAsyncOptions } from './options.js';
