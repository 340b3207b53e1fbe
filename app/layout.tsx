import type { Metadata, Viewport } from "next";
import { headers } from "next/headers";
import type { ReactNode } from "react";
import { ThemeProvider } from "next-themes";
import { accountInfo } from "@/lib/auth/account";
import { AccountProvider } from "@/components/auth/AccountProvider";
import "./globals.css";

export const metadata: Metadata = {
  title: "Threadkeeper",
  description: "A Claude chat workspace that never loses the thread of a long conversation.",
  applicationName: "Threadkeeper",
  manifest: "/manifest.webmanifest",
  icons: {
    icon: [
      { url: "/favicon.ico", sizes: "32x32" },
      { url: "/icon.svg", type: "image/svg+xml" },
    ],
    apple: [{ url: "/apple-touch-icon.png", sizes: "180x180" }],
  },
};

export const viewport: Viewport = {
  width: "device-width",
  initialScale: 1,
  // The browser's own bars match the page in either theme.
  themeColor: [
    { media: "(prefers-color-scheme: light)", color: "#fafafa" },
    { media: "(prefers-color-scheme: dark)", color: "#09090b" },
  ],
};

/** The nonce middleware.ts put into this request's Content-Security-Policy. */
function cspNonce(csp: string | null): string | undefined {
  return csp ? /'nonce-([^']+)'/.exec(csp)?.[1] : undefined;
}

// Rendered per request: every page carries its own CSP nonce (set by middleware.ts), and
// sign-in settings are read at run time so one build serves local and SaaS mode.
export default async function RootLayout({ children }: { children: ReactNode }) {
  const requestHeaders = await headers();
  const account = await accountInfo(requestHeaders.get("cookie"));
  const nonce = cspNonce(requestHeaders.get("content-security-policy"));
  return (
    // next-themes sets the theme class on <html> before React hydrates.
    <html lang="en" suppressHydrationWarning>
      <body className="bg-zinc-50 text-zinc-900 antialiased dark:bg-zinc-950 dark:text-zinc-100">
        {/* Its inline script applies the saved theme before first paint; the nonce lets it past the CSP. */}
        <ThemeProvider attribute="class" defaultTheme="system" enableSystem disableTransitionOnChange nonce={nonce}>
          <AccountProvider account={account}>{children}</AccountProvider>
        </ThemeProvider>
      </body>
    </html>
  );
}
