import { json, route } from "@/lib/api/http";
import { api } from "@/lib/contract/endpoints";
import { listSessionFiles, uploadFile } from "@/lib/operations/files";

export const dynamic = "force-dynamic";

export const POST = route(api.uploadFile, async ({ params, upload, caller }) =>
  json({ file: await uploadFile(caller.userId, params.id, upload) }, 201),
);

export const GET = route(api.listSessionFiles, async ({ params, caller }) => json({ files: await listSessionFiles(caller.userId, params.id) }));
