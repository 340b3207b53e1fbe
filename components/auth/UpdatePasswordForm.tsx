"use client";
// Where a password reset link lands: it signs the user in for this purpose (a PKCE `code`,
// handled by the Supabase client on load, or a `token_hash` from a custom email template),
// then the new password is set.
import { useEffect, useState, type FormEvent } from "react";
import { supabaseBrowser } from "@/lib/client/account";
import { describeAuthError, Field, newPassword, FormError, SubmitButton } from "./form";

type Stage = "checking" | "ready" | "invalid";

export function UpdatePasswordForm() {
  const [stage, setStage] = useState<Stage>("checking");
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    const supabase = supabaseBrowser()!;
    const tokenHash = new URLSearchParams(window.location.search).get("token_hash");
    const signedIn = tokenHash
      ? supabase.auth.verifyOtp({ type: "recovery", token_hash: tokenHash }).then((r) => !r.error && r.data.session !== null)
      : supabase.auth.getSession().then((r) => r.data.session !== null);
    void signedIn.then(
      (ok) => setStage(ok ? "ready" : "invalid"),
      () => setStage("invalid"),
    );
  }, []);

  async function submit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const form = new FormData(e.currentTarget);
    const password = newPassword(form);
    if (password === null) {
      setError("The two passwords differ.");
      return;
    }
    setBusy(true);
    setError(null);
    const { error: err } = await supabaseBrowser()!.auth.updateUser({ password });
    if (err) {
      setError(describeAuthError(err));
      setBusy(false);
      return;
    }
    window.location.assign("/");
  }

  if (stage === "checking") return <p className="text-sm text-zinc-500 dark:text-zinc-400">Checking your link…</p>;
  if (stage === "invalid") {
    return (
      <FormError message="This link has expired or was already used. Request a new one below." />
    );
  }
  return (
    <form method="post" onSubmit={(e) => void submit(e)} className="space-y-4" data-testid="update-password-form">
      <Field label="New password" name="password" type="password" autoComplete="new-password" minLength={8} required autoFocus disabled={busy} />
      <Field label="Repeat new password" name="confirm" type="password" autoComplete="new-password" minLength={8} required disabled={busy} />
      <FormError message={error} />
      <SubmitButton busy={busy} busyLabel="Saving…">
        Set new password
      </SubmitButton>
    </form>
  );
}
