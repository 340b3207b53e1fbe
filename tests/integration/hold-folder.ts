// Run by folder-lock.test.ts as a process of its own: takes a data folder's lock, says so, and
// holds it until killed.
import { lockDataFolder } from "@/lib/db/folder-lock";

void lockDataFolder(process.argv[2]).then(
  () => {
    process.stdout.write("held\n");
    setInterval(() => {}, 60_000);
  },
  (err: unknown) => {
    process.stdout.write(`refused: ${(err as Error).message}\n`);
    process.exit(3);
  },
);
