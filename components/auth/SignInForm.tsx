"use client";
import { useState, type FormEvent } from "react";
import { nextPath, supabaseBrowser } from "@/lib/client/account";
import { describeAuthError, Field, FormError, SubmitButton } from "./form";

export function SignInForm() {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  async function submit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const form = new FormData(e.currentTarget);
    setBusy(true);
    setError(null);
    const { error: err } = await supabaseBrowser()!.auth.signInWithPassword({
      email: String(form.get("email")),
      password: String(form.get("password")),
    });
    if (err) {
      setError(describeAuthError(err));
      setBusy(false);
      return;
    }
    // A full load, so the server renders the workspace with the new session cookie.
    window.location.assign(nextPath(window.location.search));
  }

  return (
    <form method="post" onSubmit={(e) => void submit(e)} className="space-y-4" data-testid="sign-in-form">
      <Field label="Email" name="email" type="email" autoComplete="email" required autoFocus disabled={busy} />
      <Field label="Password" name="password" type="password" autoComplete="current-password" required disabled={busy} />
      <FormError message={error} />
      <SubmitButton busy={busy} busyLabel="Signing in…">
        Sign in
      </SubmitButton>
    </form>
  );
}
