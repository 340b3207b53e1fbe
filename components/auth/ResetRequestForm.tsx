"use client";
import { useState, type FormEvent } from "react";
import { supabaseBrowser } from "@/lib/client/account";
import { describeAuthError, Field, FormError, FormNotice, SubmitButton } from "./form";

export function ResetRequestForm() {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [sentTo, setSentTo] = useState<string | null>(null);

  async function submit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const email = String(new FormData(e.currentTarget).get("email"));
    setBusy(true);
    setError(null);
    const { error: err } = await supabaseBrowser()!.auth.resetPasswordForEmail(email, {
      redirectTo: `${window.location.origin}/update-password`,
    });
    setBusy(false);
    if (err) setError(describeAuthError(err));
    else setSentTo(email);
  }

  if (sentTo) {
    // Worded so that it does not tell whether the address has an account.
    return (
      <FormNotice>
        If <strong>{sentTo}</strong> has an account, a link to choose a new password is on its way.
      </FormNotice>
    );
  }
  return (
    <form method="post" onSubmit={(e) => void submit(e)} className="space-y-4" data-testid="reset-form">
      <Field label="Email" name="email" type="email" autoComplete="email" required autoFocus disabled={busy} />
      <FormError message={error} />
      <SubmitButton busy={busy} busyLabel="Sending…">
        Send reset link
      </SubmitButton>
    </form>
  );
}
