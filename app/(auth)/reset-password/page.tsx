import Link from "next/link";
import { AuthCard } from "@/components/auth/AuthCard";
import { ResetRequestForm } from "@/components/auth/ResetRequestForm";

export const metadata = { title: "Reset your password · Threadkeeper" };

export default function Page() {
  return (
    <AuthCard
      title="Reset your password"
      subtitle="We will email you a link to choose a new one."
      footer={
        <>
          <p>
            Remembered it? <Link href="/login" className="font-medium text-zinc-900 dark:text-zinc-100 underline-offset-2 hover:underline">Sign in</Link>
          </p>
        </>
      }
    >
      <ResetRequestForm />
    </AuthCard>
  );
}
