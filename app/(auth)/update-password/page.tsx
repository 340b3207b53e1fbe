import Link from "next/link";
import { AuthCard } from "@/components/auth/AuthCard";
import { UpdatePasswordForm } from "@/components/auth/UpdatePasswordForm";

export const metadata = { title: "Choose a new password · Threadkeeper" };

export default function Page() {
  return (
    <AuthCard
      title="Choose a new password"
      footer={
        <>
          <p>
            <Link href="/reset-password" className="font-medium text-zinc-900 dark:text-zinc-100 underline-offset-2 hover:underline">Request a new link</Link> · <Link href="/login" className="font-medium text-zinc-900 dark:text-zinc-100 underline-offset-2 hover:underline">Sign in</Link>
          </p>
        </>
      }
    >
      <UpdatePasswordForm />
    </AuthCard>
  );
}
