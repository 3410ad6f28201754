import type { FlowDenial } from '../errors/flowCodes.js';
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

/** The shape of the records this version writes; a record of another shape is treated as absent. */
export const FLOW_RECORD_VERSION = 3;

/**
 * A flow as sealed in the store: every field, the expiry and the approval included, opens
 * only under the server's secret and for this flow (see `StoreSecrets.seal`). The store holds
 * the sealed text alone: no state, expiry, send, number, code or token in clear.
 */
export interface FlowRecord {
  version: typeof FLOW_RECORD_VERSION;
  state: 'pending' | 'approved' | 'denied';
  /** Epoch ms when the link, and so the flow and its approval, expires. */
  expiresAt: number;
  /** The asking browser, for the approval page. */
  askedBy: DeviceSummary & { at: number };
  /** Keyed digests of the request ids of the send this flow belongs to, once the service answered it. */
  sendIds?: string[];
  deniedBecause?: FlowDenial;
  /** What the approving device hands the asking browser. */
  approval?: FlowApproval;
}

/** What the approving device hands the asking browser, sealed in the store with its flow. */
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
    const raw = this.#secrets.seal(flowId, record);
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
    return this.#move(flowId, started, Object.assign({}, started.record, { sendIds }));
  }

  /**
   * Binds one more send to a pending flow (the waiting page's "send by SMS instead"): a code
   * of either send then approves it, and the flow keeps its number and its expiry. False when
   * the flow is no longer pending or moved on meanwhile (compare-and-set).
   */
  async addSend(flowId: string, current: StoredFlow, requestIds: readonly string[]): Promise<boolean> {
    if (current.record.state !== 'pending') return false;
    const added = requestIds.map((id) => this.#secrets.sendDigest(id));
    const sendIds = [...new Set([...(current.record.sendIds ?? []), ...added])];
    return this.#move(flowId, current, Object.assign({}, current.record, { sendIds }));
  }

  /** Whether the verified code belongs to this flow's send (by the service's request id). */
  isOwnSend(flow: StoredFlow, requestId: string): boolean {
    return flow.record.sendIds?.includes(this.#secrets.sendDigest(requestId)) === true;
  }

  /** The flow, or `undefined` when unknown, expired or unreadable (an older shape included). */
  async read(flowId: string, now: number): Promise<StoredFlow | undefined> {
    const raw = await this.#store.get(this.#secrets.flowKey(flowId));
    return raw === undefined ? undefined : this.#opened(flowId, raw, now);
  }

  /** Denies a pending flow for good; false when it moved on since it was read (compare-and-set). */
  async deny(flowId: string, flow: PendingFlow, why: FlowDenial): Promise<boolean> {
    return this.#move(flowId, flow, Object.assign({}, flow.record, { state: 'denied' as const, deniedBecause: why }));
  }

  /** Approves a pending flow with the verification, sealed; false when it moved on since it was read. */
  async approve(flowId: string, flow: PendingFlow, approval: FlowApproval): Promise<boolean> {
    return this.#move(flowId, flow, Object.assign({}, flow.record, { state: 'approved' as const, approval }));
  }

  /**
   * Where the flow stands, for the asking browser. A flow its asking browser finished (its
   * approval taken, or the link opened in that browser) is `none`: nothing waits here any more.
   * A poll that read its session before that browser's login and the flow after it would
   * otherwise say `expired` ("nobody was signed in") beside the signed-in tab. A flow gone
   * without that mark (expired, lost by the store) is `expired`.
   */
  async status(flowId: string, now: number): Promise<{ status: FlowStatus; record?: FlowRecord }> {
    const flow = await this.read(flowId, now);
    if (!flow) {
      const finished = (await this.#store.get(this.#secrets.approvalUsedKey(flowId))) !== undefined;
      return { status: finished ? 'none' : 'expired' };
    }
    return { status: flow.record.state, record: flow.record };
  }

  /**
   * Takes an approved flow (once, across instances); otherwise says where it stands.
   * `undefined`: the flow is gone (unknown, expired, taken by another tab, used, or unreadable).
   *
   * An approval serves one login: besides the atomic take, its use is marked in the store until
   * its link expires (the expiry is sealed with it), so the same sealed record written back
   * after the take opens nothing.
   */
  async take(flowId: string, now: number): Promise<FlowTake | undefined> {
    const flow = await this.read(flowId, now);
    if (!flow) return undefined;
    if (flow.record.state !== 'approved') return { kind: flow.record.state };
    // Another tab or instance took it first (or it changed since it was read): for this request it is gone.
    if ((await this.#store.take(this.#secrets.flowKey(flowId))) !== flow.raw) return undefined;
    const { approval, expiresAt } = flow.record;
    if (!isApproval(approval)) return undefined;
    // The mark outlives the record's own expiry, past which `read` refuses it anyway.
    const ttl = Math.max(1, expiresAt - now) + USED_MARK_MARGIN_MS;
    if (!(await this.#store.create(this.#secrets.approvalUsedKey(flowId), '1', ttl))) return undefined;
    return { kind: 'approved', approval };
  }

  /**
   * Drops a flow (the asking browser finished it itself, opening the link), marked as an approval
   * used is: its status then reads `none`, not `expired`, and the record written back by whoever
   * kept it opens no approval. `expiresAt`: the flow's expiry when the caller knows it (the
   * asking browser's send); otherwise it is read from the record.
   */
  async discard(flowId: string, now = Date.now(), expiresAt?: number): Promise<void> {
    const raw = await this.#store.take(this.#secrets.flowKey(flowId));
    if (raw === undefined) return;
    // The asking browser's own send gives the flow's expiry (`expiresAt`, from the session's
    // sealed pending send: the flow was stored with that same expiry, which never changes), so
    // the login does not open the record only to read it. A record that would not have opened
    // gets the mark too: a mark refuses approvals of this flow, it never grants one.
    let until = expiresAt;
    if (until === undefined) {
      const flow = this.#opened(flowId, raw, now);
      if (!flow) return;
      until = flow.record.expiresAt;
    }
    await this.#store.create(
      this.#secrets.approvalUsedKey(flowId),
      '1',
      Math.max(1, until - now) + USED_MARK_MARGIN_MS,
    );
  }

  /** Moves a flow to `next`, sealed; false when it changed since it was read (compare-and-set). */
  #move(flowId: string, from: StoredFlow, next: FlowRecord): Promise<boolean> {
    return this.#store.swap(this.#secrets.flowKey(flowId), from.raw, this.#secrets.seal(flowId, next));
  }

  /** The record sealed in `raw` for this flow, while its sealed expiry is ahead. */
  #opened(flowId: string, raw: string, now: number): StoredFlow | undefined {
    const record = parseRecord(this.#secrets.open(flowId, raw));
    if (!record || record.expiresAt <= now) return undefined;
    return { raw, record };
  }
}

/** How much longer than its link an approval's used mark lives: a margin for clocks of other instances. */
const USED_MARK_MARGIN_MS = 60_000;

/**
 * A record of this shape, opened: the seal vouches for what this code wrote, the checks keep a
 * record of an older shape (or none) from being misread.
 */
function parseRecord(value: unknown): FlowRecord | undefined {
  const record = value as Partial<FlowRecord> | null | undefined;
  if (!record || record.version !== FLOW_RECORD_VERSION || typeof record.expiresAt !== 'number') return undefined;
  if (record.state !== 'pending' && record.state !== 'approved' && record.state !== 'denied') return undefined;
  if (!record.askedBy || typeof record.askedBy !== 'object') return undefined;
  if (record.sendIds !== undefined && !Array.isArray(record.sendIds)) return undefined;
  return record as FlowRecord;
}

/** An opened approval of this shape: a primitive, `null` or `undefined` has neither field. */
function isApproval(value: unknown): value is FlowApproval {
  const v = value as Partial<FlowApproval> | null | undefined;
  return typeof v?.approvedAt === 'number' && !!v.verification?.userDetails?.token;
}
