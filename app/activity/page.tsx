import { ActivityLog } from "@/components/activity/ActivityLog";

export const metadata = { title: "Activity · Threadkeeper" };

export default function ActivityPage() {
  return <ActivityLog />;
}
