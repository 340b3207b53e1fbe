import Link from "next/link";
import { AuthCard } from "@/components/auth/AuthCard";
import { SignInForm } from "@/components/auth/SignInForm";

export const metadata = { title: "Sign in · Threadkeeper" };

export default function Page() {
  return (
    <AuthCard
      title="Sign in"
      subtitle="Your long conversations with Claude, right where you left them."
      footer={
        <>
          <p>
            No account yet? <Link href="/signup" className="font-medium text-zinc-900 dark:text-zinc-100 underline-offset-2 hover:underline">Create one</Link>
          </p>
          <p>
            <Link href="/reset-password" className="font-medium text-zinc-900 dark:text-zinc-100 underline-offset-2 hover:underline">Forgot your password?</Link>
          </p>
        </>
      }
    >
      <SignInForm />
    </AuthCard>
  );
}
