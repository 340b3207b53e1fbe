import Link from "next/link";
import { redirect } from "next/navigation";
import { authMode } from "@/lib/auth/config";
import { AuthCard } from "@/components/auth/AuthCard";
import { ResetRequestForm } from "@/components/auth/ResetRequestForm";

export const metadata = { title: "Reset your password · Threadkeeper" };

export default function Page() {
  // Local mode has no accounts: the workspace is the only page.
  if (authMode() === "local") redirect("/");
  return (
    <AuthCard
      title="Reset your password"
      subtitle="We will email you a link to choose a new one."
      footer={
        <>
          <p>
            Remembered it? <Link href="/login" className="font-medium text-zinc-900 underline-offset-2 hover:underline">Sign in</Link>
          </p>
        </>
      }
    >
      <ResetRequestForm />
    </AuthCard>
  );
}
