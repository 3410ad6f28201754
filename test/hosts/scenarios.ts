/** The login scenarios every host runs (test/hosts/conformance.test.ts), in table order. */
export const SCENARIOS = [
  { id: 'emailSameBrowser', title: 'e-mail link, same browser', column: 'E-mail' },
  { id: 'mobileHandoff', title: 'mobile handoff with number matching', column: 'Handoff' },
  { id: 'wrongNumber', title: 'wrong number denies the flow', column: 'Wrong number' },
  { id: 'frontendTokenOnce', title: 'frontend token logs in once', column: 'Token once' },
  { id: 'confirmMode', title: 'confirm mode', column: 'Confirm' },
  { id: 'guardAllow', title: 'guard allows a clean login', column: 'Guard allow' },
  { id: 'guardBlock', title: 'guard blocks a risky login', column: 'Guard block' },
  { id: 'logout', title: 'logout', column: 'Logout' },
] as const;

export type ScenarioId = (typeof SCENARIOS)[number]['id'];
