import { route } from "@/lib/api/http";
import { download, fileNameOf } from "@/lib/api/download";
import { api } from "@/lib/contract/endpoints";
import { sessionMarkdown } from "@/lib/export/markdown";
import { exportSession } from "@/lib/operations/export";

export const dynamic = "force-dynamic";

export const GET = route(api.exportSession, async ({ params, query, caller }) => {
  const doc = await exportSession(caller.userId, params.id);
  if (query.format === "md") return download(sessionMarkdown(doc), fileNameOf(doc.session.title, "md"), "text/markdown; charset=utf-8");
  return download(JSON.stringify(doc, null, 2), fileNameOf(doc.session.title, "json"), "application/json; charset=utf-8");
});
