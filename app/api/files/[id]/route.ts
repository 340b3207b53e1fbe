import { fileResponse } from "@/lib/api/files";
import { route } from "@/lib/api/http";
import { api } from "@/lib/contract/endpoints";
import { deleteFile, readFile } from "@/lib/operations/files";

export const dynamic = "force-dynamic";

export const GET = route(api.getFile, async ({ params, query, caller }) => fileResponse(await readFile(caller.userId, params.id), query.download === "1"));

export const DELETE = route(api.deleteFile, async ({ params, caller }) => {
  await deleteFile(caller.userId, params.id);
  return new Response(null, { status: 204 });
});
