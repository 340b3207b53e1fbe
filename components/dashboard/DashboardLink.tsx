// The way from the workspace to the usage dashboard.
import Link from "next/link";
import { BarChart3 } from "lucide-react";

export function DashboardLink() {
  return (
    <Link
      href="/dashboard"
      data-testid="dashboard-link"
      className="mx-4 mb-2 flex items-center gap-1.5 rounded-md px-2.5 py-1.5 text-xs text-zinc-600 hover:bg-zinc-100 dark:text-zinc-400 dark:hover:bg-zinc-800"
    >
      <BarChart3 aria-hidden className="h-3.5 w-3.5 shrink-0" />
      Usage and cost
    </Link>
  );
}
