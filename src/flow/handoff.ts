import type { CodeVerificationResult } from '../wire/types.js';
import type { FlowStore } from '../stores/types.js';
import type { DeviceSummary } from './device.js';
import { flowKey, seal, unseal } from './seal.js';

/** The query parameter that carries the flow id in `redirect_uri`, and so back to the callback. */
export const FLOW_PARAM = 'flow';

/** The callback URL with the flow id added (a query it already has is kept). */
export function withFlowParam(callbackUrl: string, flowId: string): string {
  const url = new URL(callbackUrl);
  url.searchParams.set(FLOW_PARAM, flowId);
  return url.href;
}

/** Where a cross-device flow stands, as `strategy.status()` reports it. */
export type FlowStatus = 'none' | 'pending' | 'approved' | 'denied' | 'expired';

/** Why a flow was denied. */
export type FlowDenial = 'WRONG_NUMBER' | 'USER_DENIED' | 'CODE_REJECTED';

/** A flow as stored (JSON, short keys). No code, token or secret: an approval is sealed. */
export interface FlowRecord {
  v: 1;
  s: 'pending' | 'approved' | 'denied';
  /** The number the asking browser shows. */
  m: string;
  /** Epoch ms when the link, and so the flow, expires. */
  exp: number;
  /** The asking browser, for the approval page. */
  a: DeviceSummary & { at: number };
  why?: FlowDenial;
  /** The approval, sealed with the flow id's key. */
  r?: string;
}

/** What the approving device hands the asking browser, sealed in the store. */
export interface FlowApproval {
  verification: CodeVerificationResult;
  approvedAt: number;
  approvedBy: DeviceSummary;
}

/** A record read from the store, with the exact text a `swap` must compare against. */
export interface StoredFlow {
  raw: string;
  record: FlowRecord;
}

/** What finishing a flow found. */
export type FlowTake =
  { kind: 'approved'; approval: FlowApproval } | { kind: 'pending' | 'denied' | 'expired'; record?: FlowRecord };

/**
 * The cross-device flow over a `FlowStore`: `send()` starts one, the phone's approval moves it
 * to approved or denied exactly once (compare-and-set), and the asking browser takes an
 * approved one exactly once (one atomic take across every instance).
 */
export class Handoff {
  readonly #store: FlowStore;

  constructor(store: FlowStore) {
    this.#store = store;
  }

  /** Stores a new pending flow until its link expires. */
  async start(flowId: string, record: Pick<FlowRecord, 'm' | 'exp' | 'a'>, now: number): Promise<void> {
    const full: FlowRecord = { v: 1, s: 'pending', ...record };
    // 128 random bits do not collide; a false here means the store refused to keep it.
    if (!(await this.#store.create(flowKey(flowId), JSON.stringify(full), Math.max(1, record.exp - now)))) {
      throw new Error('the flow store did not keep a new flow');
    }
  }

  /** The flow, or `undefined` when unknown, expired or unreadable. */
  async read(flowId: string, now: number): Promise<StoredFlow | undefined> {
    const raw = await this.#store.get(flowKey(flowId));
    const record = raw === undefined ? undefined : parseRecord(raw);
    if (raw === undefined || !record || record.exp <= now) return undefined;
    return { raw, record };
  }

  /** Denies a pending flow for good; false when it was no longer pending. */
  async deny(flowId: string, flow: StoredFlow, why: FlowDenial): Promise<boolean> {
    if (flow.record.s !== 'pending') return false;
    const next: FlowRecord = { ...flow.record, s: 'denied', why };
    return this.#store.swap(flowKey(flowId), flow.raw, JSON.stringify(next));
  }

  /** Approves a pending flow with the verification, sealed; false when it was no longer pending. */
  async approve(flowId: string, flow: StoredFlow, approval: FlowApproval): Promise<boolean> {
    if (flow.record.s !== 'pending') return false;
    const next: FlowRecord = { ...flow.record, s: 'approved', r: seal(flowId, approval) };
    return this.#store.swap(flowKey(flowId), flow.raw, JSON.stringify(next));
  }

  /** Where the flow stands, for the asking browser. */
  async status(flowId: string, now: number): Promise<{ status: FlowStatus; record?: FlowRecord }> {
    const flow = await this.read(flowId, now);
    if (!flow) return { status: 'expired' };
    return { status: flow.record.s, record: flow.record };
  }

  /** Takes an approved flow (once, across instances); otherwise says where it stands. */
  async take(flowId: string, now: number): Promise<FlowTake> {
    const flow = await this.read(flowId, now);
    if (!flow) return { kind: 'expired' };
    if (flow.record.s !== 'approved') return { kind: flow.record.s, record: flow.record };
    const taken = await this.#store.take(flowKey(flowId));
    // Another tab or instance took it first: for this request it is gone.
    const record = taken === undefined ? undefined : parseRecord(taken);
    if (!record || record.s !== 'approved' || record.r === undefined) return { kind: 'expired' };
    const approval = unseal(flowId, record.r);
    if (!isApproval(approval)) return { kind: 'expired' };
    return { kind: 'approved', approval };
  }

  /** Drops a flow (the asking browser finished it itself). */
  async discard(flowId: string): Promise<void> {
    await this.#store.take(flowKey(flowId));
  }
}

function parseRecord(raw: string): FlowRecord | undefined {
  try {
    const value = JSON.parse(raw) as Partial<FlowRecord> | null;
    if (!value || value.v !== 1 || typeof value.m !== 'string' || typeof value.exp !== 'number') return undefined;
    if (value.s !== 'pending' && value.s !== 'approved' && value.s !== 'denied') return undefined;
    if (!value.a || typeof value.a !== 'object') return undefined;
    return value as FlowRecord;
  } catch {
    return undefined;
  }
}

function isApproval(value: unknown): value is FlowApproval {
  const v = value as Partial<FlowApproval> | null;
  return !!v && typeof v === 'object' && typeof v.approvedAt === 'number' && !!v.verification?.userDetails?.token;
}
