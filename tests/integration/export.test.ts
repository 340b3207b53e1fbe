// A session exported: JSON with every message of every version, its compactions and
// checkpoints (valid against the contract); Markdown that shows the conversation as it stands.
import { describe, expect, it } from "vitest";
import * as exportRoute from "@/app/api/session/[id]/export/route";
import * as compactRoute from "@/app/api/context/compact/route";
import { sessionExport } from "@/lib/contract/exchange";
import { idle, newSession, params, postMessage, prose, req, sendJson, useHarness } from "./harness";

const h = useHarness();
const get = (id: string, query = "") => exportRoute.GET(req("GET", `/api/session/${id}/export${query}`), params({ id }));

describe("session export", () => {
  it("JSON keeps everything; Markdown reads as the conversation stands, with the summary where it happened", async () => {
    const s = await newSession({ title: "Garden: beds / paths", settings: { output_reservation: 0.5, safety_buffer: 0.3 } });
    for (let i = 0; i < 3; i++) await sendJson(s.id, `[[reply:Noted ${i}.]] ${prose(300, i)}`);
    await idle(h, s.id);
    expect((await compactRoute.POST(req("POST", "/api/context/compact", { session_id: s.id, force: true }), undefined)).status).toBe(201);
    const { body: asked } = await sendJson(s.id, "[[reply:Tomatoes like sun.]] Where do tomatoes go? ```ts\nconst x = 1;\n```");
    await idle(h, s.id);
    const edited = await postMessage(s.id, { content: "[[reply:Basil beside them.]] Where does basil go?", edit_of: asked.user_message.id }, { accept: "application/json" });
    expect(edited.status).toBe(201);
    await idle(h, s.id);

    const res = await get(s.id);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-disposition")).toBe(`attachment; filename="Garden beds paths.json"; filename*=UTF-8''Garden%20beds%20paths.json`);
    const doc = sessionExport.parse(await res.json());
    expect(doc.messages).toHaveLength(10);
    expect(doc.messages.filter((m) => m.supersedes_turn !== null)).toHaveLength(1);
    expect(doc.compactions.filter((c) => c.status === "applied")).toHaveLength(1);
    expect(doc.checkpoints.some((c) => c.trigger === "pre_compaction")).toBe(true);
    expect(doc.system_prompt.length).toBeGreaterThan(0);

    const md = await (await get(s.id, "?format=md")).text();
    expect(md.startsWith("# Garden: beds / paths\n")).toBe(true);
    expect(md).toContain("were condensed into a summary");
    // The current version only: the edited question, not the one it replaced.
    expect(md).toContain("Where does basil go?");
    expect(md).not.toContain("Where do tomatoes go?");
    expect(md).toContain("edited (the earlier version is in the JSON export)");
    expect(md.indexOf("condensed into a summary")).toBeLessThan(md.indexOf("Where does basil go?"));
  });
});
