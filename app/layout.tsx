import type { Metadata, Viewport } from "next";
import { headers } from "next/headers";
import type { ReactNode } from "react";
import { accountInfo } from "@/lib/auth/account";
import { AccountProvider } from "@/components/AccountProvider";
import "./globals.css";

export const metadata: Metadata = {
  title: "Threadkeeper",
  description: "A Claude chat workspace that never loses the thread of a long conversation.",
};

export const viewport: Viewport = {
  width: "device-width",
  initialScale: 1,
};

// Rendered per request: every page carries its own CSP nonce (set by middleware.ts), and
// sign-in settings are read at run time so one build serves local and SaaS mode.
export default async function RootLayout({ children }: { children: ReactNode }) {
  const account = await accountInfo((await headers()).get("cookie"));
  return (
    <html lang="en">
      <body className="antialiased">
        <AccountProvider account={account}>{children}</AccountProvider>
      </body>
    </html>
  );
}
