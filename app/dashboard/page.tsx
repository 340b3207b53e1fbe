import { Dashboard } from "@/components/dashboard/Dashboard";

export const metadata = { title: "Usage · Threadkeeper" };

export default function DashboardPage() {
  return <Dashboard />;
}
