import { HOSTS } from './hosts.js';
import { SCENARIOS } from './scenarios.js';

/**
 * The host table of docs/frameworks.md, from the suite's own hosts and scenarios: every host in
 * HOSTS runs every scenario (a host that could not would fail its test), so each cell says so.
 */
export function renderHostTable(): string {
  const head = ['Host', 'Session', ...SCENARIOS.map((s) => s.column), 'Notes'];
  const rows = HOSTS.map((host) => [host.label, host.session, ...SCENARIOS.map(() => 'yes'), host.note]);
  return [head, head.map(() => '---'), ...rows].map((cells) => `| ${cells.join(' | ')} |`).join('\n');
}
