/**
 * Where one login callback's app CPU goes: `npx tsx bench/profile.ts [--app strategy|bare|bare-bound|fastify|fastify-bare]
 * [--logins 3000] [--warmup 500] [--connections 32] [--out file.cpuprofile] [--enrich]`.
 *
 * The app runs in its own process and the emulator in another, as in `npm run bench`; the app's
 * CPU profile (100 µs sampling) covers the timed callbacks only. Prints the app CPU per callback
 * and the profile's busy time by package and by function (self time), and writes the profile
 * (open it in Chrome DevTools or speedscope). A diagnosis tool: it writes nothing to results.json.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { Agent } from 'undici';
import { CLIENT } from '../test/helpers/harness.js';
import { startEmulatorProcess } from '../test/resilience/support/emulatorProcess.js';
import { cannon } from './support/cannon.js';
import { forkChild, type Child } from './support/child.js';
import { appCpuMicros, prepareLogins, startApp } from './support/flows.js';

const { values } = parseArgs({
  options: {
    app: { type: 'string', default: 'strategy' },
    logins: { type: 'string', default: '3000' },
    warmup: { type: 'string', default: '500' },
    connections: { type: 'string', default: '32' },
    out: { type: 'string', default: join(tmpdir(), `login-${Date.now()}.cpuprofile`) },
    enrich: { type: 'boolean', default: false },
    top: { type: 'string', default: '40' },
    /** Only summarize an existing profile (with --logins, the callbacks it covered). */
    summarize: { type: 'string' },
    /**
     * Sample with Linux perf (cpu-clock, on-CPU time only) instead of V8's profiler, whose samples
     * are wall time: on a loaded machine, time the app spends preempted lands on whatever it ran.
     * Writes perf's data to --out (read it with `perf report -i FILE --no-children --sort dso,sym`).
     */
    perf: { type: 'boolean', default: false },
  },
});
const kind = values.app;
const logins = Number(values.logins);
const warmup = Number(values.warmup);
const connections = Number(values.connections);
const fastify = kind.startsWith('fastify');
const FASTIFY_CHILD = fileURLToPath(new URL('./support/fastifyAppChild.ts', import.meta.url));

if (values.summarize) {
  summarize(values.summarize, logins, Number(values.top));
  process.exit(0);
}
const agent = new Agent({ connections: 64 });
const emulator = await startEmulatorProcess({ emulator: { clients: [CLIENT], quiet: true, maxLogins: 100_000 } });
const urls = { authUrl: emulator.authUrl, userAuthUrl: emulator.userAuthUrl };
const enrich = values.enrich ? (['validateToken', 'secureInfo', 'userInfo'] as const) : undefined;
const execArgv = values.perf ? ['--perf-basic-prof', '--interpreted-frames-native-stack'] : [];
const start = (mode: string): Promise<Child<{ url: string }>> =>
  fastify
    ? forkChild<{ url: string }>(
        FASTIFY_CHILD,
        { mode: mode === 'fastify' ? 'strategy' : 'bare', ...urls },
        { execArgv: mode === kind ? execArgv : [] },
      )
    : startApp(
        { mode: mode as 'strategy', ...urls, ...(enrich ? { enrich: [...enrich] } : {}) },
        { execArgv: mode === kind ? execArgv : [] },
      );
// The pending cookies come from the strategy app's send route (both apps share the keys).
const target = await start(kind);
const sender = kind === 'strategy' || kind === 'fastify' ? target : await start(fastify ? 'fastify' : 'strategy');
try {
  const run = async (count: number, profile?: string) => {
    const prepared = await prepareLogins(sender.ready.url, emulator, count + connections, agent);
    let perf: ChildProcess | undefined;
    if (profile && values.perf) {
      perf = spawn('perf', ['record', '-e', 'cpu-clock', '-F', '4000', '-g', '-p', String(target.pid), '-o', profile], {
        stdio: 'ignore',
      });
      await new Promise((resolve) => setTimeout(resolve, 500));
    } else if (profile) await target.call('profileStart');
    const cpu = await appCpuMicros(target);
    let next = 0;
    const result = await cannon({
      url: `${target.ready.url}/auth/callback`,
      connections,
      amount: count,
      next: () => {
        const login = prepared[next++ % prepared.length]!;
        return { path: login.path, cookie: login.cookie };
      },
    });
    const micros = ((await appCpuMicros(target)) - cpu) / count;
    if (perf) {
      const exited = new Promise((resolve) => perf.once('exit', resolve));
      perf.kill('SIGINT');
      await exited;
    } else if (profile) await target.call('profileStop', profile);
    if (result.statuses['3xx'] !== count)
      throw new Error(`not every callback logged in: ${JSON.stringify(result.statuses)}`);
    return { micros, rps: result.requestsPerSecond };
  };
  await run(warmup);
  const { micros, rps } = await run(logins, values.out);
  console.log(
    `${kind}: ${micros.toFixed(0)} µs app CPU per callback, ${rps.toFixed(0)} callbacks/s; profile ${values.out}`,
  );
  if (!values.perf) summarize(values.out, logins, Number(values.top));
} finally {
  await target.close();
  if (sender !== target) await sender.close();
  await emulator.close();
  await agent.close();
}

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}

/** Self time by package (or our source folder) and by function, in µs per callback. */
function summarize(file: string, count: number, top: number): void {
  const profile = JSON.parse(readFileSync(file, 'utf8')) as {
    nodes: ProfileNode[];
    samples: number[];
    timeDeltas: number[];
  };
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const self = new Map<number, number>();
  profile.samples.forEach((id, i) => self.set(id, (self.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0)));
  const groupOf = (url: string): string => {
    const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
    if (pkg) return pkg[1]!;
    const ours = /\/(src|bench|test)\/(.*\/)?[^/]+$/.exec(url);
    if (ours) return `${ours[1]}/${(ours[2] ?? '').split('/')[0] ?? ''}`;
    if (url.startsWith('node:')) return url.split('/')[0]!;
    return url === '' ? '(native/vm)' : url;
  };
  const groups = new Map<string, number>();
  const fns = new Map<string, number>();
  let busy = 0;
  for (const [id, t] of self) {
    const node = byId.get(id)!;
    const { functionName, url, lineNumber } = node.callFrame;
    if (functionName === '(idle)' || functionName === '(program)') continue;
    busy += t;
    const g = functionName === '(garbage collector)' ? '(gc)' : groupOf(url);
    groups.set(g, (groups.get(g) ?? 0) + t);
    const key = `${functionName || '(anonymous)'} ${url.replace(/^.*\/(node_modules|src|bench|test)\//, '$1/')}:${lineNumber + 1}`;
    fns.set(key, (fns.get(key) ?? 0) + t);
  }
  // Native frames (no url: writev, digest, GC...) charged to the innermost JS frame that called them.
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const owned = new Map<string, number>();
  for (const [id, t] of self) {
    let node = byId.get(id)!;
    const name = node.callFrame.functionName;
    if (name === '(idle)' || name === '(program)') continue;
    if (name === '(garbage collector)') {
      owned.set('(gc)', (owned.get('(gc)') ?? 0) + t);
      continue;
    }
    while (node.callFrame.url === '' && parent.has(node.id)) node = byId.get(parent.get(node.id)!)!;
    const g = groupOf(node.callFrame.url);
    owned.set(g, (owned.get(g) ?? 0) + t);
  }
  const per = (t: number) => (t / count).toFixed(1).padStart(7);
  console.log('\nself time with native callees charged to their JS caller, by package / folder, µs per callback:');
  for (const [g, t] of [...owned].sort((a, b) => b[1] - a[1]).slice(0, 30)) console.log(`${per(t)}  ${g}`);
  console.log(`busy (excluding idle and "(program)"): ${per(busy)} µs per callback`);
  console.log('\nself time by package / folder, µs per callback:');
  for (const [g, t] of [...groups].sort((a, b) => b[1] - a[1]).slice(0, 30)) console.log(`${per(t)}  ${g}`);
  console.log('\nself time by function, µs per callback:');
  for (const [f, t] of [...fns].sort((a, b) => b[1] - a[1]).slice(0, top)) console.log(`${per(t)}  ${f}`);
  // Total (inclusive) time of each function: its own and everything it called, counted once per sample.
  const total = new Map<string, number>();
  for (const [id, t] of self) {
    const seen = new Set<string>();
    for (let node: ProfileNode | undefined = byId.get(id); node; node = byId.get(parent.get(node.id) ?? -1)) {
      const { functionName, url, lineNumber } = node.callFrame;
      if (url === '' || functionName === '(idle)' || functionName === '(program)') continue;
      const key = `${functionName || '(anonymous)'} ${url.replace(/^.*\/(node_modules|src|bench|test)\//, '$1/')}:${lineNumber + 1}`;
      if (seen.has(key)) continue;
      seen.add(key);
      total.set(key, (total.get(key) ?? 0) + t);
    }
  }
  console.log('\ntotal time (with callees) by function, src/ and top others, µs per callback:');
  for (const [f, t] of [...total]
    .sort((a, b) => b[1] - a[1])
    .filter(([f]) => f.includes(' src/'))
    .slice(0, top))
    console.log(`${per(t)}  ${f}`);
  console.log('');
  for (const [f, t] of [...total]
    .sort((a, b) => b[1] - a[1])
    .filter(([f]) => !f.includes(' src/'))
    .slice(0, top))
    console.log(`${per(t)}  ${f}`);
}
