export { isSafeLocalPath } from './origin.js';
export type { HttpRequest, NextFunction } from './request.js';
