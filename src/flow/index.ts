export type { FlowStatus } from './handoff.js';
export type { DeviceSummary } from './device.js';
