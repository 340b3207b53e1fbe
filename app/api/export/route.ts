import { Readable } from "node:stream";
import { route } from "@/lib/api/http";
import { api } from "@/lib/contract/endpoints";
import { exportAccount } from "@/lib/operations/export-all";

export const dynamic = "force-dynamic";

export const GET = route(api.exportAccount, async ({ caller }) => {
  const zip = await exportAccount(caller.userId);
  const name = `threadkeeper-export-${new Date().toISOString().slice(0, 10)}.zip`;
  return new Response(Readable.toWeb(zip) as ReadableStream<Uint8Array>, {
    headers: { "content-type": "application/zip", "content-disposition": `attachment; filename="${name}"`, "cache-control": "no-store" },
  });
});
