// The ways from the workspace to the pages beside it: usage, activity, account settings, the API's docs.
import Link from "next/link";
import { BarChart3, BookOpen, History, Settings } from "lucide-react";

const LINK =
  "flex items-center gap-1.5 rounded-md px-2.5 py-1.5 text-xs text-zinc-600 hover:bg-zinc-100 dark:text-zinc-400 dark:hover:bg-zinc-800";

export function DashboardLink({ onAccountSettings }: { onAccountSettings?(): void } = {}) {
  return (
    <div className="mx-4 mb-2 flex flex-wrap gap-1">
      <Link href="/dashboard" data-testid="dashboard-link" className={LINK}>
        <BarChart3 aria-hidden className="h-3.5 w-3.5 shrink-0" />
        Usage and cost
      </Link>
      <Link href="/activity" data-testid="activity-link" className={LINK}>
        <History aria-hidden className="h-3.5 w-3.5 shrink-0" />
        Activity
      </Link>
      {onAccountSettings && (
        <button type="button" data-testid="account-settings-link" onClick={onAccountSettings} className={LINK}>
          <Settings aria-hidden className="h-3.5 w-3.5 shrink-0" />
          Settings
        </button>
      )}
      <a href="/docs" data-testid="api-docs-link" className={LINK}>
        <BookOpen aria-hidden className="h-3.5 w-3.5 shrink-0" />
        API docs
      </a>
    </div>
  );
}
