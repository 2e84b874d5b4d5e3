import axe from 'axe-core';
import type { Page } from 'playwright-core';

/** axe-core findings at these impacts fail a test; minor and moderate ones are left to review. */
const FAILING_IMPACTS = new Set(['serious', 'critical']);

/**
 * axe-core's serious and critical findings on the open page, one line each with the rule and the elements it found.
 * The pages' CSP forbids scripts of their own: axe's source comes in through the DevTools protocol, so the test
 * checks the pages with their CSP on.
 */
export async function accessibilityProblems(page: Page): Promise<string[]> {
  if (!(await page.evaluate<boolean>("'axe' in window"))) await page.evaluate(axe.source);
  const violations = await page.evaluate<Array<{ id: string; impact: string; targets: string[] }>>(
    `axe.run(document, { resultTypes: ['violations'] }).then((results) => results.violations.map((v) => ({ id: v.id, impact: v.impact ?? 'unknown', targets: v.nodes.map((node) => node.target.join(' ')) })))`,
  );
  return violations.filter((v) => FAILING_IMPACTS.has(v.impact)).map((v) => `axe ${v.impact} ${v.id}: ${v.targets.join(', ')}`);
}
