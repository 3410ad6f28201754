export type { FlowStore } from './types.js';
export { MemoryFlowStore } from './memory.js';
export type { MemoryFlowStoreOptions } from './memory.js';
export { RedisFlowStore } from './redis.js';
export type { RedisClientLike, RedisFlowStoreOptions } from './redis.js';
