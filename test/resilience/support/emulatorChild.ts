// The emulator in a process of its own, driven over IPC by emulatorProcess.ts: load tests and
// benchmarks get a second core for it, and its work never shares the event loop under test.
import { startEmulator } from '../../../src/emulator/index.js';
import type { EmulatorOptions, FaultSpec, IssueTokenOptions, OutboxEntry } from '../../../src/emulator/index.js';

interface Command {
  id: number;
  cmd: string;
  args: unknown[];
}

const options = JSON.parse(process.argv[2] ?? '{}') as EmulatorOptions;
const emu = await startEmulator(options);

/** Outbox entries by recipient, filled from the outbox on a miss (it keeps only the newest). */
const byRecipient = new Map<string, OutboxEntry>();
const seen = new Set<string>();
function entryFor(to: string): OutboxEntry | undefined {
  let entry = byRecipient.get(to);
  if (!entry) {
    for (const e of emu.outbox()) {
      // By link: the two channels of one send share a request id, as the service's do.
      if (seen.has(e.link)) continue;
      seen.add(e.link);
      byRecipient.set(e.to, e);
    }
    entry = byRecipient.get(to);
  }
  byRecipient.delete(to);
  return entry;
}

const gc = (globalThis as { gc?: () => void }).gc;

const handlers: Record<string, (...args: never[]) => unknown> = {
  entries: (recipients: string[]) => recipients.map((to) => entryFor(to) ?? null),
  entriesByRequestId: (ids: string[]) => {
    const wanted = new Set(ids);
    const found = new Map(
      emu
        .outbox()
        .filter((e) => wanted.has(e.requestId))
        .map((e) => [e.requestId, e]),
    );
    return ids.map((id) => found.get(id) ?? null);
  },
  outboxSize: () => emu.outbox().length,
  issueToken: (opts?: IssueTokenOptions) => emu.issueToken(opts),
  fault: (spec: FaultSpec) => emu.fault(spec),
  clearFaults: () => emu.clearFaults(),
  advanceTime: (ms: number) => emu.advanceTime(ms),
  heapUsed: () => {
    // Twice: the first pass can leave objects with finalizers for the second.
    gc?.();
    gc?.();
    return gc ? process.memoryUsage().heapUsed : null;
  },
};

let closing = false;
async function stop(): Promise<void> {
  if (closing) return;
  closing = true;
  await emu.close();
  process.disconnect?.();
}

process.on('message', (message: Command | 'close') => {
  if (message === 'close') return void stop();
  const handler = handlers[message.cmd];
  try {
    if (!handler) throw new Error(`unknown command ${message.cmd}`);
    const value = (handler as (...a: unknown[]) => unknown)(...message.args);
    process.send?.({ id: message.id, ok: true, value: value ?? null });
  } catch (err) {
    process.send?.({ id: message.id, ok: false, error: String(err) });
  }
});
// The parent went away (crash, Ctrl-C): do not linger.
process.on('disconnect', () => void stop());

process.send?.({ ready: true, authUrl: emu.authUrl, userAuthUrl: emu.userAuthUrl });
