import type { Page } from 'playwright-core';

// axe-core's source, injected through the DevTools protocol (page.evaluate), which the page's
// CSP does not govern: the console's own policy stays as strict in the test as in production.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const AXE_SOURCE: string = require('axe-core').source;

export interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  targets: string[];
}

/** axe-core's WCAG 2.x A and AA rules on the page as it is; only serious and critical violations. */
export async function seriousViolations(page: Page): Promise<AxeViolation[]> {
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(AXE_SOURCE);
  const violations = await page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run: (context: unknown, options: unknown) => Promise<any> } }).axe;
    const result = await axe.run(document, {
      runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'] },
      resultTypes: ['violations'],
    });
    return result.violations.map((v: any) => ({
      id: v.id,
      impact: v.impact,
      help: v.help,
      targets: v.nodes.slice(0, 5).map((n: any) => n.target.join(' ')),
    }));
  });
  return violations.filter((v: AxeViolation) => v.impact === 'serious' || v.impact === 'critical');
}
