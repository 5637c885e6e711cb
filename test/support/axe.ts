import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';

/**
 * axe-core (Deque's accessibility engine, well kept, the rules behind most
 * a11y tooling) run in the page under test.
 *
 * The admin's CSP allows scripts from 'self' only, so `addScriptTag` (an
 * inline <script>, or one from another origin) would be refused and
 * reported as a violation. The source is evaluated through the DevTools
 * protocol instead (`page.evaluate`), which the CSP does not govern, like
 * any DevTools console input: the page keeps its real CSP, so the same run
 * still proves that the admin itself raises no violation. axe needs no
 * eval of its own.
 */
const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/** WCAG 2.0, 2.1 and 2.2 level A and AA rules. */
export const WCAG_AA = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'];

export interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: string; summary: string }[];
}

/** The violations of `tags` rules in the page as it is now (its whole document). */
export async function axeViolations(page: Page, tags: string[] = WCAG_AA): Promise<AxeViolation[]> {
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(AXE_SOURCE);
  return page.evaluate(async (values) => {
    type Axe = {
      run(
        context: Document,
        options: object,
      ): Promise<{
        violations: {
          id: string;
          impact?: string | null;
          help: string;
          nodes: { target: unknown[]; failureSummary?: string }[];
        }[];
      }>;
    };
    const axe = (window as unknown as { axe: Axe }).axe;
    const result = await axe.run(document, { runOnly: { type: 'tag', values }, resultTypes: ['violations'] });
    return result.violations.map((v) => ({
      id: v.id,
      impact: v.impact ?? null,
      help: v.help,
      nodes: v.nodes.map((n) => ({ target: n.target.map(String).join(' '), summary: n.failureSummary ?? '' })),
    }));
  }, tags);
}

/** One line per failing element, for an assertion message a person can act on. */
export function describeViolations(violations: AxeViolation[]): string[] {
  return violations.flatMap((v) =>
    v.nodes.map((n) => `${v.id} (${v.impact}): ${v.help} at ${n.target}: ${n.summary.replace(/\s+/g, ' ')}`),
  );
}
