import fs from 'node:fs';
import type { Page } from 'playwright-core';

/** One accessibility rule broken on a page, as axe-core reports it (trimmed to what a failure message needs). */
export interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  targets: string[];
}

const AXE_SOURCE = fs.readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');

/**
 * Runs axe-core (WCAG 2.0/2.1 A and AA rules) in the page as it stands and answers every violation. The script is
 * added through the DevTools protocol (`addScriptTag` would be refused by the pages' strict CSP, which is the point
 * of the CSP), so what is checked is the page exactly as served.
 */
export async function axeViolations(page: Page): Promise<AxeViolation[]> {
  await page.evaluate(AXE_SOURCE);
  return page.evaluate(async () => {
    const axe = (globalThis as unknown as { axe: { run(ctx: unknown, opts: unknown): Promise<{ violations: Array<{ id: string; impact: string | null; help: string; nodes: Array<{ target: string[] }> }> }> } }).axe;
    const result = await axe.run(document, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] } });
    return result.violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help, targets: v.nodes.map((n) => n.target.join(' ')) }));
  });
}
