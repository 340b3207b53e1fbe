import type { ReactNode } from "react";

export const metadata = { title: "API docs · Threadkeeper" };

export default function DocsLayout({ children }: { children: ReactNode }) {
  return children;
}
