import Link from "next/link";
import { AuthCard } from "@/components/auth/AuthCard";
import { SignUpForm } from "@/components/auth/SignUpForm";

export const metadata = { title: "Create your account · Threadkeeper" };

export default function Page() {
  return (
    <AuthCard
      title="Create your account"
      subtitle="Threadkeeper keeps every session, checkpoint and memory under your account."
      footer={
        <>
          <p>
            Already have an account? <Link href="/login" className="font-medium text-zinc-900 dark:text-zinc-100 underline-offset-2 hover:underline">Sign in</Link>
          </p>
        </>
      }
    >
      <SignUpForm />
    </AuthCard>
  );
}
