import { Workspace } from "@/components/Workspace";

export default function HomePage() {
  return <Workspace />;
}
