import type { CodeVerificationResult } from '../wire/types.js';
import type { FlowStore } from '../stores/types.js';
import type { DeviceSummary } from './device.js';
import type { StoreSecrets } from './seal.js';

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
export type FlowDenial = 'WRONG_NUMBER' | 'USER_DENIED';

/** The shape of the records this version writes; a record of another shape is treated as absent. */
export const FLOW_RECORD_VERSION = 2;

/**
 * A flow as stored (JSON). No code, token, flow id, number or request id in clear: the key
 * and the send's request ids are keyed digests, the approval is sealed (see `StoreSecrets`).
 */
export interface FlowRecord {
  version: typeof FLOW_RECORD_VERSION;
  state: 'pending' | 'approved' | 'denied';
  /** Epoch ms when the link, and so the flow, expires. */
  expiresAt: number;
  /** The asking browser, for the approval page. */
  askedBy: DeviceSummary & { at: number };
  /** Keyed digests of the request ids of the send this flow belongs to, once the service answered it. */
  sendIds?: string[];
  deniedBecause?: FlowDenial;
  /** The approval, sealed under the server's secret for this flow. */
  approval?: string;
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

/** A flow still waiting for its answer: the only kind `approve` and `deny` take. */
export type PendingFlow = StoredFlow & { record: { state: 'pending' } };

/** Whether the flow read is still waiting for its answer (not missing, approved or denied). */
export function isPending(flow: StoredFlow | undefined): flow is PendingFlow {
  return flow?.record.state === 'pending';
}

/** What finishing a flow found, when it is not gone. */
export type FlowTake = { kind: 'approved'; approval: FlowApproval } | { kind: 'pending' | 'denied' };

/**
 * The cross-device flow over a `FlowStore`: `send()` starts one, the phone's approval moves it
 * to approved or denied exactly once (compare-and-set), and the asking browser takes an
 * approved one exactly once (one atomic take across every instance).
 */
export class Handoff {
  readonly #store: FlowStore;
  readonly #secrets: StoreSecrets;

  constructor(store: FlowStore, secrets: StoreSecrets) {
    this.#store = store;
    this.#secrets = secrets;
  }

  /** The number the asking browser shows for this flow. */
  numberOf(flowId: string): string {
    return this.#secrets.matchNumber(flowId);
  }

  /**
   * Stores a new pending flow until its link expires; resolves to the flow as stored, which
   * `recordSend` compares against.
   */
  async start(flowId: string, flow: Pick<FlowRecord, 'expiresAt' | 'askedBy'>, now: number): Promise<StoredFlow> {
    const record: FlowRecord = { version: FLOW_RECORD_VERSION, state: 'pending', ...flow };
    const raw = JSON.stringify(record);
    // 128 random bits do not collide; a false here means the store refused to keep it.
    if (!(await this.#store.create(this.#secrets.flowKey(flowId), raw, Math.max(1, flow.expiresAt - now)))) {
      throw new Error('the flow store did not keep a new flow');
    }
    return { raw, record };
  }

  /**
   * Binds the flow to its send once the service answered it: an approval must then bring a
   * code of this send. False when the flow moved on meanwhile (it is then refused anyway).
   */
  async recordSend(flowId: string, started: StoredFlow, requestIds: readonly string[]): Promise<boolean> {
    const sendIds = [...new Set(requestIds.map((id) => this.#secrets.sendDigest(id)))];
    const next: FlowRecord = { ...started.record, sendIds };
    return this.#store.swap(this.#secrets.flowKey(flowId), started.raw, JSON.stringify(next));
  }

  /** Whether the verified code belongs to this flow's send (by the service's request id). */
  isOwnSend(flow: StoredFlow, requestId: string): boolean {
    return flow.record.sendIds?.includes(this.#secrets.sendDigest(requestId)) === true;
  }

  /** The flow, or `undefined` when unknown, expired or unreadable (an older shape included). */
  async read(flowId: string, now: number): Promise<StoredFlow | undefined> {
    const raw = await this.#store.get(this.#secrets.flowKey(flowId));
    if (raw === undefined) return undefined;
    const record = parseRecord(raw);
    if (!record || record.expiresAt <= now) return undefined;
    return { raw, record };
  }

  /** Denies a pending flow for good; false when it moved on since it was read (compare-and-set). */
  async deny(flowId: string, flow: PendingFlow, why: FlowDenial): Promise<boolean> {
    const next: FlowRecord = { ...flow.record, state: 'denied', deniedBecause: why };
    return this.#store.swap(this.#secrets.flowKey(flowId), flow.raw, JSON.stringify(next));
  }

  /** Approves a pending flow with the verification, sealed; false when it moved on since it was read. */
  async approve(flowId: string, flow: PendingFlow, approval: FlowApproval): Promise<boolean> {
    const next: FlowRecord = { ...flow.record, state: 'approved', approval: this.#secrets.seal(flowId, approval) };
    return this.#store.swap(this.#secrets.flowKey(flowId), flow.raw, JSON.stringify(next));
  }

  /** Where the flow stands, for the asking browser. */
  async status(flowId: string, now: number): Promise<{ status: FlowStatus; record?: FlowRecord }> {
    const flow = await this.read(flowId, now);
    if (!flow) return { status: 'expired' };
    return { status: flow.record.state, record: flow.record };
  }

  /**
   * Takes an approved flow (once, across instances); otherwise says where it stands.
   * `undefined`: the flow is gone (unknown, expired, taken by another tab, or unreadable).
   */
  async take(flowId: string, now: number): Promise<FlowTake | undefined> {
    const flow = await this.read(flowId, now);
    if (!flow) return undefined;
    if (flow.record.state !== 'approved') return { kind: flow.record.state };
    // Another tab or instance took it first (or it changed since it was read): for this request it is gone.
    if ((await this.#store.take(this.#secrets.flowKey(flowId))) !== flow.raw) return undefined;
    // `open` refuses anything but a sealed approval of this flow, a missing one included.
    const approval = this.#secrets.open(flowId, flow.record.approval);
    if (!isApproval(approval)) return undefined;
    return { kind: 'approved', approval };
  }

  /** Drops a flow (the asking browser finished it itself). */
  async discard(flowId: string): Promise<void> {
    await this.#store.take(this.#secrets.flowKey(flowId));
  }
}

function parseRecord(raw: string): FlowRecord | undefined {
  try {
    const value = JSON.parse(raw) as Partial<FlowRecord> | null;
    if (!value || value.version !== FLOW_RECORD_VERSION || typeof value.expiresAt !== 'number') return undefined;
    if (value.state !== 'pending' && value.state !== 'approved' && value.state !== 'denied') return undefined;
    if (!value.askedBy || typeof value.askedBy !== 'object') return undefined;
    if (value.sendIds !== undefined && !Array.isArray(value.sendIds)) return undefined;
    return value as FlowRecord;
  } catch {
    return undefined;
  }
}

/** An opened approval of this shape: a primitive, `null` or `undefined` has neither field. */
function isApproval(value: unknown): value is FlowApproval {
  const v = value as Partial<FlowApproval> | null | undefined;
  return typeof v?.approvedAt === 'number' && !!v.verification?.userDetails?.token;
}
