export type { FlowStatus, FlowDenial } from './handoff.js';
export type { DeviceSummary } from './device.js';
