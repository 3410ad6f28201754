import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';

/** axe-core's browser build, evaluated in the page by the test (not a script tag the page's CSP would refuse). */
const AXE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/** One rule axe says the page breaks. */
export interface Violation {
  id: string;
  impact: string | null;
  help: string;
  nodes: Array<{ target: string[] }>;
}

/**
 * The serious and critical axe-core violations of the page as it stands, one line each
 * (`rule (impact) help at selector`); empty when there are none. The audit runs in the page's
 * main world through DevTools, so it works under the page's own CSP and with the page's
 * scripts turned off. A page that moves on while it is audited (a redirect the browser follows
 * after the first load) is audited again where it settles.
 */
export async function axeViolations(page: Page): Promise<string[]> {
  for (let attempt = 1; ; attempt++) {
    try {
      await page.waitForLoadState('load');
      if (!(await page.evaluate('typeof window.axe !== "undefined"'))) await page.evaluate(AXE);
      const result = (await page.evaluate('axe.run(document, { resultTypes: ["violations"] })')) as {
        violations: Violation[];
      };
      return result.violations
        .filter((v) => v.impact === 'serious' || v.impact === 'critical')
        .map((v) => `${v.id} (${v.impact}) ${v.help} at ${v.nodes[0]?.target.join(' ')}`);
    } catch (err) {
      if (attempt < 3 && /Execution context was destroyed/.test(String(err))) continue;
      throw err;
    }
  }
}
