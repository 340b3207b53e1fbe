// The sign-in pages exist in SaaS mode only: local mode has no accounts, and the workspace is
// the only page.
import { redirect } from "next/navigation";
import type { ReactNode } from "react";
import { authMode } from "@/lib/mode";

export const dynamic = "force-dynamic";

export default function AuthLayout({ children }: { children: ReactNode }) {
  if (authMode() === "local") redirect("/");
  return children;
}
