import { Workspace } from "@/components/chat/Workspace";

export default function HomePage() {
  return <Workspace />;
}
