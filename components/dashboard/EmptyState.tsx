// Before the first billed call: why there is nothing (no API key: offline replies are free)
// and what the dashboard will show, so an empty page is not a mystery.
import Link from "next/link";
import { BarChart3 } from "lucide-react";

const WHAT = [
  ["Tokens and cost per day", "input, cache writes, cache reads and output, with what each cost"],
  ["Cache hit rate", "how much of every request was read from the prompt cache"],
  ["Compactions", "each one's window before and after, its method and what it kept"],
  ["Context fill, turn by turn", "per session, with compactions and slides marked"],
  ["Estimate vs measured", "how close our token estimate came to the API's count"],
  ["Most expensive sessions", "where the money went"],
] as const;

export function EmptyState({ offline }: { offline: boolean }) {
  return (
    <section
      data-testid="dashboard-empty"
      className="mx-auto max-w-xl rounded-xl border border-zinc-200 bg-white p-6 text-sm text-zinc-700 dark:border-zinc-800 dark:bg-zinc-900 dark:text-zinc-300"
    >
      <BarChart3 aria-hidden className="mb-3 h-8 w-8 text-sky-500" />
      <h2 className="text-base font-semibold text-zinc-900 dark:text-zinc-100">{offline ? "Nothing billed: replies are offline" : "No usage yet"}</h2>
      {offline && (
        <p data-testid="dashboard-offline" className="mt-1 font-medium text-amber-800 dark:text-amber-300">
          This server has no Anthropic API key, so the offline responder answers for free; offline replies are not billed, so
          there is nothing to chart. Set ANTHROPIC_API_KEY to talk to Claude.
        </p>
      )}
      <p className="mt-1">
        Every call Threadkeeper makes to Claude is recorded here with its tokens and cost: replies, summaries and titles. Once you
        chat, this page shows:
      </p>
      <ul className="mt-3 space-y-1.5">
        {WHAT.map(([title, what]) => (
          <li key={title}>
            <span className="font-medium text-zinc-900 dark:text-zinc-100">{title}</span>: {what}.
          </li>
        ))}
      </ul>
      <Link
        href="/"
        className="mt-4 inline-flex rounded-md bg-zinc-900 px-3 py-1.5 text-sm font-medium text-white hover:bg-zinc-700 dark:bg-zinc-100 dark:text-zinc-900 dark:hover:bg-zinc-300"
      >
        Start a conversation
      </Link>
    </section>
  );
}
