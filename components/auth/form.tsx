"use client";
// Pieces the sign-in forms share: a labelled field, the submit button, the error and
// notice lines, and turning Supabase Auth's errors into words a user can act on.
import type { AuthError } from "@supabase/supabase-js";
import { useEffect, useState, type InputHTMLAttributes, type ReactNode } from "react";

// Forms declare method="post": if one is submitted before hydration, the password goes in a
// request body, never into the URL and the server logs.
export function Field({ label, ...input }: { label: string } & InputHTMLAttributes<HTMLInputElement>) {
  return (
    <label className="block text-sm">
      <span className="mb-1 block font-medium text-zinc-700 dark:text-zinc-300">{label}</span>
      <input
        {...input}
        className="block w-full rounded-md border border-zinc-300 dark:border-zinc-700 bg-white dark:bg-zinc-900 px-3 py-2 text-sm text-zinc-900 dark:text-zinc-100 shadow-sm outline-none placeholder:text-zinc-400 dark:placeholder:text-zinc-500 focus:border-zinc-500 dark:focus:border-zinc-400 focus:ring-2 focus:ring-zinc-200 dark:focus:ring-zinc-700 disabled:bg-zinc-50 dark:disabled:bg-zinc-950"
      />
    </label>
  );
}

export function SubmitButton({ busy, children, busyLabel }: { busy: boolean; children: ReactNode; busyLabel: string }) {
  // Enabled once hydrated: a submit before that would be the browser's own form post.
  const [ready, setReady] = useState(false);
  useEffect(() => setReady(true), []);
  return (
    <button
      type="submit"
      disabled={busy || !ready}
      className="w-full rounded-md bg-zinc-900 dark:bg-zinc-100 px-3 py-2 text-sm font-medium text-white dark:text-zinc-900 shadow-sm hover:bg-zinc-800 dark:hover:bg-zinc-300 focus-visible:outline focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-zinc-900 dark:focus-visible:outline-zinc-100 disabled:opacity-60"
    >
      {busy ? busyLabel : children}
    </button>
  );
}

export function FormError({ message }: { message: string | null }) {
  if (!message) return null;
  return (
    <p role="alert" data-testid="auth-error" className="rounded-md bg-red-50 dark:bg-red-950/40 px-3 py-2 text-sm text-red-800 dark:text-red-300">
      {message}
    </p>
  );
}

export function FormNotice({ children }: { children: ReactNode }) {
  return (
    <p role="status" data-testid="auth-notice" className="rounded-md bg-emerald-50 dark:bg-emerald-950/40 px-3 py-2 text-sm text-emerald-900 dark:text-emerald-200">
      {children}
    </p>
  );
}

export function describeAuthError(error: AuthError | Error): string {
  const code = "code" in error ? (error as AuthError).code : undefined;
  switch (code) {
    case "invalid_credentials":
      return "Wrong email or password.";
    case "user_already_exists":
    case "email_exists":
      return "An account with this email already exists. Sign in instead.";
    case "email_not_confirmed":
      return "Confirm your email first: the link is in your inbox.";
    case "weak_password":
      return error.message || "Choose a stronger password.";
    case "over_request_rate_limit":
    case "over_email_send_rate_limit":
      return "Too many attempts. Wait a minute and try again.";
    case "same_password":
      return "The new password must differ from the old one.";
  }
  if (error.name === "AuthRetryableFetchError" || /fetch/i.test(error.message)) {
    return "Could not reach the sign-in service. Check your connection and retry.";
  }
  return error.message || "Something went wrong. Please retry.";
}

/** The new password of a form with `password` and `confirm` fields, or null when the two differ. */
export function newPassword(form: FormData): string | null {
  const password = String(form.get("password"));
  return password === String(form.get("confirm")) ? password : null;
}
