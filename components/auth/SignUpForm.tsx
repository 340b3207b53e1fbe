"use client";
import { useState, type FormEvent } from "react";
import { supabaseBrowser } from "@/lib/client/account";
import { describeAuthError, Field, newPassword, FormError, FormNotice, SubmitButton } from "./form";

const MIN_PASSWORD = 8;

export function SignUpForm() {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [confirmTo, setConfirmTo] = useState<string | null>(null);

  async function submit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const form = new FormData(e.currentTarget);
    const email = String(form.get("email"));
    const password = newPassword(form);
    if (password === null) {
      setError("The two passwords differ.");
      return;
    }
    setBusy(true);
    setError(null);
    const { data, error: err } = await supabaseBrowser()!.auth.signUp({
      email,
      password,
      options: { emailRedirectTo: `${window.location.origin}/` },
    });
    if (err) {
      setError(describeAuthError(err));
      setBusy(false);
      return;
    }
    // With email confirmation on, Supabase answers without a session until the link is followed.
    if (!data.session) {
      setConfirmTo(email);
      setBusy(false);
      return;
    }
    window.location.assign("/");
  }

  if (confirmTo) {
    return (
      <FormNotice>
        Almost there: we sent a confirmation link to <strong>{confirmTo}</strong>. Follow it, then sign in.
      </FormNotice>
    );
  }
  return (
    <form method="post" onSubmit={(e) => void submit(e)} className="space-y-4" data-testid="sign-up-form">
      <Field label="Email" name="email" type="email" autoComplete="email" required autoFocus disabled={busy} />
      <Field
        label={`Password (at least ${MIN_PASSWORD} characters)`}
        name="password"
        type="password"
        autoComplete="new-password"
        minLength={MIN_PASSWORD}
        required
        disabled={busy}
      />
      <Field label="Repeat password" name="confirm" type="password" autoComplete="new-password" minLength={MIN_PASSWORD} required disabled={busy} />
      <FormError message={error} />
      <SubmitButton busy={busy} busyLabel="Creating your account…">
        Create account
      </SubmitButton>
    </form>
  );
}
