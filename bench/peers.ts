/**
 * The peers a user would pick instead, each paired with ours in the same run:
 * `npx tsx bench/peers.ts [--peers magic-login,magic-login-key,better-auth] [--rounds 7]
 * [--logins 1000] [--peers-dir DIR] [--returning]`.
 *
 * Each peer app is built as its README shows (bench/support/peerAppChild.ts) and loaded at the
 * same time as our strategy app (bench/support/appChild.ts, the test harness's app), each in its
 * own process, with real logins: every timed request is a fresh link made by the app's own send
 * route before the clock starts. Per pair: each app's CPU per login, logins/s, p50/p99, heap
 * after the rounds (two full GCs), each with its per-round range. The peers do less work than
 * ours, and each row says what it skips; the rows only report (no goal).
 *
 * The peers are dev-only: installed in node_modules, or with `--peers-dir DIR` (or
 * BENCH_PEERS_DIR) a directory where `npm install --prefix DIR passport-magic-login@1.2.4
 * better-auth@1.7.25 better-sqlite3@12.9.0` put them. A peer that cannot be loaded is skipped
 * with a note, not failed.
 */
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { Agent, request } from 'undici';
import { CLIENT } from '../test/helpers/harness.js';
import { startEmulatorProcess, type EmulatorProcess } from '../test/resilience/support/emulatorProcess.js';
import { forkChild, type Child } from './support/child.js';
import { pool, prepareLogins, startApp } from './support/flows.js';
import { fmtSpread, runPairs, sampleSide, summarize, type LoginRequest, type PairSide } from './support/pair.js';
import type { PeerMode } from './support/peerAppChild.js';
import { printTable, row, type BenchRow } from './support/report.js';

export interface PeersBenchOptions {
  peers: PeerMode[];
  logins: number;
  rounds: number;
  warmupRounds: number;
  /** Logins each app serves alone before the rounds. */
  warmup: number;
  connections: number;
  peersDir?: string | undefined;
  /**
   * Each login by an address that signed in before (`--returning`): a peer that keeps users
   * (better-auth) then finds one instead of signing one up per login. The warm-up signs them up.
   */
  returning?: boolean;
}

export const PEERS_BENCH_DEFAULTS: PeersBenchOptions = {
  peers: ['magic-login', 'magic-login-key', 'better-auth'],
  logins: 1_000,
  rounds: 7,
  warmupRounds: 2,
  warmup: 500,
  connections: 16,
};

/** What each peer is, and what it does not do that ours does. */
const PEERS: Record<PeerMode, { package: string; name: string; skips: string }> = {
  'magic-login': {
    package: 'passport-magic-login',
    name: 'passport-magic-login@1.2.4 (README setup: string secret)',
    skips:
      'no service call (the link carries a signed JWT), no single use (a used link logs in again), no browser binding',
  },
  'magic-login-key': {
    package: 'passport-magic-login',
    name: 'passport-magic-login@1.2.4, secret as a key object',
    skips: 'no service call, no single use, no browser binding',
  },
  'better-auth': {
    package: 'better-auth',
    name: 'better-auth@1.7.25 magic link, SQLite (better-sqlite3@12.9.0)',
    skips:
      'no service call, no browser binding; single use by deleting its verification row; creates a user and a session row per login',
  },
};

const PEER_CHILD = fileURLToPath(new URL('./support/peerAppChild.ts', import.meta.url));

/** The peers that can be loaded from `dir` (or this checkout). */
function available(peers: PeerMode[], dir: string | undefined, log: (line: string) => void): PeerMode[] {
  const req = createRequire(join(dir ?? process.cwd(), 'package.json'));
  return peers.filter((peer) => {
    try {
      req.resolve(PEERS[peer].package);
      if (peer === 'better-auth') req.resolve('better-sqlite3');
      return true;
    } catch {
      log(`peers: ${PEERS[peer].package} is not installed (see bench/peers.ts), its row is skipped`);
      return false;
    }
  });
}

let made = 0;

/**
 * Fresh links of a peer app: its own send route, then its outbox (nothing is clicked in between).
 * Each to a new address, or with `returning` to the same addresses batch after batch (distinct
 * within a batch: the peer's outbox keeps one link per address).
 */
async function preparePeer(
  peer: Child<{ url: string }>,
  mode: PeerMode,
  count: number,
  agent: Agent,
  returning = false,
) {
  const emails = Array.from({ length: count }, (_, i) =>
    returning ? `peer-${process.pid}-returning-${i}@example.com` : `peer-${process.pid}-${++made}@example.com`,
  );
  const ba = mode === 'better-auth';
  await pool(count, 50, async (i) => {
    const email = emails[i] as string;
    const res = await request(`${peer.ready.url}${ba ? '/api/auth/sign-in/magic-link' : '/auth/magiclogin'}`, {
      dispatcher: agent,
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json', origin: peer.ready.url },
      body: JSON.stringify(ba ? { email, callbackURL: '/me' } : { destination: email }),
    });
    const text = await res.body.text();
    if (res.statusCode !== 200) throw new Error(`${mode}: send answered ${res.statusCode}: ${text.slice(0, 200)}`);
  });
  const links = await peer.call<Array<string | null>>('links', emails);
  return links.map((link): LoginRequest => {
    if (!link) throw new Error(`${mode}: a sent link is missing`);
    const url = new URL(link, peer.ready.url);
    return { path: `${url.pathname}${url.search}` };
  });
}

export async function runPeersBench(
  options: PeersBenchOptions = PEERS_BENCH_DEFAULTS,
  log: (line: string) => void = console.log,
): Promise<BenchRow[]> {
  const peers = available(options.peers, options.peersDir, log);
  if (peers.length === 0) return [];
  const agent = new Agent({ connections: 128 });
  const emulator: EmulatorProcess = await startEmulatorProcess({
    emulator: { clients: [CLIENT], quiet: true, maxLogins: 100_000 },
  });
  const rows: BenchRow[] = [];
  try {
    for (const mode of peers) {
      const peer = await forkChild<{ url: string }>(
        PEER_CHILD,
        { mode, ...(options.peersDir ? { peersDir: options.peersDir } : {}) },
        { exposeGc: true },
      );
      const ours = await startApp(
        { mode: 'strategy', authUrl: emulator.authUrl, userAuthUrl: emulator.userAuthUrl },
        { exposeGc: true },
      );
      try {
        const oursSide: PairSide = {
          label: 'ours',
          app: ours,
          prepare: async (count) =>
            (await prepareLogins(ours.ready.url, emulator, count, agent)).map(({ path, cookie }) => ({ path, cookie })),
        };
        const peerSide: PairSide = {
          label: mode,
          app: peer,
          prepare: (count) => preparePeer(peer, mode, count, agent, options.returning),
        };
        log(`peers: ours with ${PEERS[mode].name}, ${options.logins} logins x ${options.rounds} rounds, together`);
        for (const side of [oursSide, peerSide]) {
          await sampleSide(
            side,
            options.warmup,
            await side.prepare(options.warmup + options.connections),
            options.connections,
          );
        }
        const rounds = await runPairs(oursSide, peerSide, {
          logins: options.logins,
          connections: options.connections,
          rounds: options.rounds,
          warmupRounds: options.warmupRounds,
          together: true,
          log,
        });
        // A redirect is not proof of a login (better-auth redirects its refusals too): the peer counts its own.
        const served = options.warmup + (options.rounds + options.warmupRounds) * options.logins;
        const logged = await peer.call<number>('loggedIn');
        if (logged < served) throw new Error(`${mode}: ${logged} logins went through of ${served} served`);
        const s = summarize(rounds);
        const heap = {
          ours: await ours.call<number | null>('heapUsed'),
          peer: await peer.call<number | null>('heapUsed'),
        };
        log(
          `peers: ${mode}: CPU µs per login ours ${fmtSpread(s.a.cpuMicrosPerLogin, 0)}, peer ${fmtSpread(s.b.cpuMicrosPerLogin, 0)}; ` +
            `peer / ours: CPU ${fmtSpread(s.cpuRatio)}, logins/s ${fmtSpread(s.rpsRatio)}; heap MB ours ${mb(heap.ours)}, peer ${mb(heap.peer)}; ` +
            `p50/p99 ms (medians of rounds) ours ${s.a.p50Ms.toFixed(1)}/${s.a.p99Ms.toFixed(1)}, peer ${s.b.p50Ms.toFixed(1)}/${s.b.p99Ms.toFixed(1)}`,
        );
        rows.push(
          row({
            id: `peers.${mode}`,
            title: `peer: ${PEERS[mode].name}`,
            unit: 'µs app CPU/login',
            ours: s.a.cpuMicrosPerLogin.median,
            baselineName: PEERS[mode].name,
            baseline: s.b.cpuMicrosPerLogin.median,
            target: null,
            details: {
              reportOnly: true,
              peerSkips: PEERS[mode].skips,
              method: `both apps loaded at once, ${options.connections} connections each, ${options.logins} fresh logins each per round${options.returning ? ' (the peer: by addresses that signed in before)' : ''}, ${options.warmupRounds} warm-up rounds discarded`,
              peerCpuOverOurs: s.cpuRatio,
              peerLoginsPerSecondOverOurs: s.rpsRatio,
              ours: { ...s.a, heapMB: mb(heap.ours) },
              peer: { ...s.b, heapMB: mb(heap.peer) },
              rounds: s.rounds,
            },
          }),
        );
      } finally {
        await peer.close();
        await ours.close();
      }
    }
  } finally {
    await emulator.close();
    await agent.close();
  }
  return rows;
}

const mb = (bytes: number | null) => (bytes === null ? null : Math.round(bytes / 1e4) / 100);

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const { values } = parseArgs({
    options: {
      peers: { type: 'string' },
      rounds: { type: 'string' },
      logins: { type: 'string' },
      'warmup-rounds': { type: 'string' },
      connections: { type: 'string' },
      'peers-dir': { type: 'string' },
      returning: { type: 'boolean' },
    },
  });
  const d = PEERS_BENCH_DEFAULTS;
  const rows = await runPeersBench({
    ...d,
    peers: values.peers ? (values.peers.split(',') as PeerMode[]) : d.peers,
    rounds: Number(values.rounds ?? d.rounds),
    logins: Number(values.logins ?? d.logins),
    warmupRounds: Number(values['warmup-rounds'] ?? d.warmupRounds),
    connections: Number(values.connections ?? d.connections),
    peersDir: values['peers-dir'] ?? process.env.BENCH_PEERS_DIR,
    returning: values.returning === true,
  });
  printTable(rows);
}
