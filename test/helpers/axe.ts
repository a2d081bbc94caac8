// Accessibility check with axe-core (the npm package, an independent checker) inside a real page.
// How axe gets in despite the strict CSP: the pages forbid any script not served by us and any eval, so
// `page.addScriptTag` is refused. Instead axe's source is run with `page.evaluate(source)`, i.e. the DevTools
// protocol's Runtime.evaluate, which the page's CSP does not govern (it is the debugger, not the page, running
// code). The page keeps its real CSP and headers while it is checked: no `setBypassCSP`, so what axe sees is what
// a visitor gets. axe itself needs no eval.
import { readFileSync } from 'node:fs';
import type { Page } from 'puppeteer-core';

let source: string | undefined;
const axeSource = () => (source ??= readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8'));

/** WCAG 2.0/2.1/2.2 A and AA rules. */
export const AXE_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'];

export interface A11yViolation {
  id: string;
  impact: string | null;
  help: string;
  targets: string[];
}

/** Runs axe on the page as it is now; returns the violations (all impacts). */
export async function axeViolations(page: Page): Promise<A11yViolation[]> {
  const loaded = (await page.evaluate(`typeof window.axe === 'object'`)) as boolean;
  if (!loaded) await page.evaluate(`${axeSource()}\n;undefined`);
  // Page-side code is passed as a string: test tooling (coverage) must not rewrite what runs in the browser.
  return (await page.evaluate(`(async () => {
    const r = await window.axe.run(document, { runOnly: { type: 'tag', values: ${JSON.stringify(AXE_TAGS)} } });
    return r.violations.map((v) => ({
      id: v.id, impact: v.impact || null, help: v.help,
      targets: v.nodes.map((n) => JSON.stringify(n.target) + (n.failureSummary ? ': ' + n.failureSummary.replace(/\\s+/g, ' ') : '')),
    }));
  })()`)) as A11yViolation[];
}

/** Readable list of violations, one per line with its elements. */
export function formatViolations(vs: A11yViolation[]): string {
  return vs
    .map((v) => `- [${v.impact}] ${v.id}: ${v.help}\n${v.targets.map((t) => `    ${t}`).join('\n')}`)
    .join('\n');
}

/** Fails when axe finds any serious or critical violation on the page; `label` names the page in the message. */
export async function expectNoSeriousA11yViolations(page: Page, label: string): Promise<void> {
  const serious = (await axeViolations(page)).filter(
    (v) => v.impact === 'serious' || v.impact === 'critical',
  );
  if (serious.length > 0) {
    throw new Error(
      `axe: ${serious.length} serious/critical violation(s) on ${label}:\n${formatViolations(serious)}`,
    );
  }
}
