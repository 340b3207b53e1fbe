// One axe check for every page in the browser suite: the serious and critical violations, and
// any rule axe could not run. A colour it cannot parse (Tailwind's "oklch(… none)") once made
// axe skip the whole contrast rule on every page while the check still read "no violations".
import AxeBuilder from "@axe-core/playwright";
import type { Page } from "@playwright/test";

export async function seriousViolations(page: Page): Promise<string[]> {
  // A panel or tooltip still fading in is measured half transparent: wait for appearing
  // animations to end (an endless one, such as a pulse, is left running).
  await page.waitForFunction(() => document.getAnimations().every((a) => a.playState !== "running" || a.effect?.getTiming().iterations === Infinity));
  const { violations, incomplete } = await new AxeBuilder({ page }).analyze();
  const found = violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .map((v) => `${v.id}: ${v.help} — ${v.nodes.map((n) => n.target.join(" ")).slice(0, 3).join(" | ")}`);
  const failedToRun = incomplete
    .filter((v) => v.nodes.some((n) => [...n.any, ...n.all, ...n.none].some((c) => c.id === "error-occurred")))
    .map((v) => `${v.id}: axe could not run the rule — ${JSON.stringify(v.nodes[0]?.any[0]?.data ?? null).slice(0, 200)}`);
  return [...found, ...failedToRun];
}
