import { HOSTS } from './hosts.js';
import { SCENARIOS } from './scenarios.js';

/**
 * Hosts the conformance suite does not run yet, each with why: shown in the docs' table so
 * the table never claims more than the suite checks.
 */
export const OUTSIDE_SUITE: ReadonlyArray<{ label: string; session: string; why: string }> = [
  {
    label: 'NestJS 12 on Express',
    session: 'cookie-session',
    why: 'tested by test/examples/nestjs.test.ts (its own routes and answers), not by this suite',
  },
  {
    label: 'NestJS 12 on Fastify',
    session: '—',
    why: 'not done yet: examples/nestjs runs on Express only',
  },
];

/**
 * The host table of docs/frameworks.md, from the suite's own hosts and scenarios: every host in
 * HOSTS runs every scenario (a host that could not would fail its test), so each cell says so.
 */
export function renderHostTable(): string {
  const head = ['Host', 'Session', ...SCENARIOS.map((s) => s.column), 'Notes'];
  const rows = HOSTS.map((host) => [host.label, host.session, ...SCENARIOS.map(() => 'yes'), host.note]);
  const outside = OUTSIDE_SUITE.map((h) => [h.label, h.session, ...SCENARIOS.map(() => '—'), h.why]);
  return [head, head.map(() => '---'), ...rows, ...outside].map((cells) => `| ${cells.join(' | ')} |`).join('\n');
}
