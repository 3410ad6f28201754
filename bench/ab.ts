/**
 * This checkout's login callback against another checkout's, alternated:
 * `npx tsx bench/ab.ts --base DIR [--app express|fastify] [--rounds 9] [--logins 1500]`, or two
 * apps of this checkout: `npx tsx bench/ab.ts --base-mode bare-bound --mode strategy`.
 *
 * DIR is a copy of another commit with this checkout's node_modules (`git archive <commit> | tar
 * -x -C DIR`, then a node_modules symlink). Both apps run the strategy app of their own checkout
 * (bench/support/appChild.ts or fastifyAppChild.ts), each in its own process, against one
 * emulator in a third; rounds alternate the order (A B, B A, ...). Prints each round's app CPU
 * per callback and the median of the per-round ratios (this / base): a figure a busy neighbour
 * skews far less than callbacks/s. A diagnosis tool: it writes nothing to results.json.
 */
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { Agent } from 'undici';
import { CLIENT } from '../test/helpers/harness.js';
import { startEmulatorProcess } from '../test/resilience/support/emulatorProcess.js';
import { cannon } from './support/cannon.js';
import { forkChild, type Child } from './support/child.js';
import { appCpuMicros, prepareLogins, type PreparedLogin } from './support/flows.js';
import { median } from './support/stats.js';

const { values } = parseArgs({
  options: {
    base: { type: 'string' },
    /** The app mode of each side (appChild.ts / fastifyAppChild.ts): 'strategy' by default. */
    'base-mode': { type: 'string', default: 'strategy' },
    mode: { type: 'string', default: 'strategy' },
    /** The strategy app's send limits on this side ('counting', the default, or 'off'). */
    limits: { type: 'string' },
    app: { type: 'string', default: 'express' },
    rounds: { type: 'string', default: '9' },
    logins: { type: 'string', default: '1500' },
    warmup: { type: 'string', default: '1000' },
    connections: { type: 'string', default: '32' },
    /**
     * Load both apps at the same time (each with --connections) instead of one after the other:
     * on a shared machine, both then see the same neighbours.
     */
    together: { type: 'boolean', default: false },
  },
});
const here = fileURLToPath(new URL('..', import.meta.url));
const baseDir = values.base ?? here;
const childFile = (dir: string) =>
  join(dir, 'bench/support', values.app === 'fastify' ? 'fastifyAppChild.ts' : 'appChild.ts');
const logins = Number(values.logins);
const connections = Number(values.connections);

const agent = new Agent({ connections: 64 });
const emulator = await startEmulatorProcess({ emulator: { clients: [CLIENT], quiet: true, maxLogins: 100_000 } });
const urls = { authUrl: emulator.authUrl, userAuthUrl: emulator.userAuthUrl };
const apps: Record<'base' | 'this', Child<{ url: string }>> = {
  base: await forkChild<{ url: string }>(childFile(baseDir), { mode: values['base-mode'], ...urls }),
  this: await forkChild<{ url: string }>(childFile(here), {
    mode: values.mode,
    ...urls,
    ...(values.limits ? { limits: values.limits } : {}),
  }),
};
type Runner = keyof typeof apps;
// Logins are prepared through a strategy app's send route (a bare app has none): a third app when neither is one.
const sender =
  values['base-mode'] === 'strategy'
    ? apps.base
    : values.mode === 'strategy'
      ? apps.this
      : await forkChild<{ url: string }>(childFile(here), { mode: 'strategy', ...urls });
const prepare = (count: number) =>
  // Both checkouts write the same pending record: a cookie from either send route fits both.
  prepareLogins(sender.ready.url, emulator, count + connections, agent);
const sample = async (runner: Runner, count: number, ready?: PreparedLogin[]) => {
  const prepared = ready ?? (await prepare(count));
  const cpu = await appCpuMicros(apps[runner]);
  let next = 0;
  const result = await cannon({
    url: `${apps[runner].ready.url}/auth/callback`,
    connections,
    amount: count,
    next: () => {
      const login = prepared[next++ % prepared.length]!;
      return { path: login.path, cookie: login.cookie };
    },
  });
  if (result.statuses['3xx'] !== count)
    throw new Error(`not every callback logged in: ${JSON.stringify(result.statuses)}`);
  return { cpu: ((await appCpuMicros(apps[runner])) - cpu) / count, rps: result.requestsPerSecond };
};
try {
  await sample('base', Number(values.warmup));
  await sample('this', Number(values.warmup));
  const cpuRatios: number[] = [];
  const rpsRatios: number[] = [];
  for (let round = 1; round <= Number(values.rounds); round++) {
    const got: Partial<Record<Runner, { cpu: number; rps: number }>> = {};
    if (values.together) {
      // Both at once, half the connections each: whatever the neighbours do hits both alike.
      const [forBase, forThis] = [await prepare(logins), await prepare(logins)];
      [got.base, got.this] = await Promise.all([sample('base', logins, forBase), sample('this', logins, forThis)]);
    } else {
      for (const runner of round % 2 ? (['base', 'this'] as const) : (['this', 'base'] as const)) {
        got[runner] = await sample(runner, logins);
      }
    }
    const { base, this: ours } = got as Record<Runner, { cpu: number; rps: number }>;
    cpuRatios.push(ours.cpu / base.cpu);
    rpsRatios.push(ours.rps / base.rps);
    console.log(
      `round ${round}: app CPU µs per callback ${base.cpu.toFixed(0)} (base), ${ours.cpu.toFixed(0)} (this): ` +
        `${(ours.cpu / base.cpu).toFixed(3)}; callbacks/s ${base.rps.toFixed(0)} / ${ours.rps.toFixed(0)}`,
    );
  }
  console.log(
    `median of per-round ratios (this / base): app CPU ${median(cpuRatios).toFixed(3)}, callbacks/s ${median(rpsRatios).toFixed(3)}`,
  );
} finally {
  await apps.base.close();
  await apps.this.close();
  if (sender !== apps.base && sender !== apps.this) await sender.close();
  await emulator.close();
  await agent.close();
}
