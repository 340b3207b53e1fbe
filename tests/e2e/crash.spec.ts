import { expect, test } from "@playwright/test";
import type { RecoveryJson, SessionJson } from "@/lib/api/types";
import { CRASH_URL, crashDataDir, startApp } from "./crash-server";
import { enqueueFake, resetFake } from "./support";

test("a server killed mid-reply keeps the partial reply, offers recovery, and a resume loses nothing", async ({ request }) => {
  await resetFake(request);
  const dataDir = crashDataDir();
  let app = await startApp(dataDir);
  try {
    const created = await request.post(`${CRASH_URL}/api/session`, { data: { title: "crash test" } });
    const { session } = (await created.json()) as { session: SessionJson };
    await request.post(`${CRASH_URL}/api/checkpoint/save`, { data: { session_id: session.id, label: "completed auth feature" } });

    // A slow reply (the fake streams it over 20 s); read deltas until some text arrived and
    // at least one flush (every second) has happened, then pull the plug.
    const words = Array.from({ length: 60 }, (_, i) => `word${i}`).join(" ");
    const res = await fetch(`${CRASH_URL}/api/session/${session.id}/messages`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ content: `[[slow:20000]] [[reply:${words}]] tell me a long story` }),
    });
    const reader = res.body!.getReader();
    let streamed = "";
    const started = Date.now();
    while (Date.now() - started < 15_000) {
      const { value, done } = await reader.read();
      if (done) break;
      streamed += new TextDecoder().decode(value);
      if ((streamed.match(/event: delta/g) ?? []).length >= 8 && Date.now() - started > 2500) break;
    }
    expect(streamed).toContain("event: delta");
    app.kill();
    await reader.cancel().catch(() => {});

    app = await startApp(dataDir);
    const recovery = (await (await request.post(`${CRASH_URL}/api/session/recover`, { data: {} })).json()) as RecoveryJson;
    expect(recovery.needed).toBe(true);
    expect(recovery.session?.id).toBe(session.id);
    expect(recovery.checkpoint?.label).toBe("completed auth feature");
    const partial = recovery.interrupted_message;
    expect(partial?.status).toBe("interrupted");
    expect(partial?.text.length).toBeGreaterThan(0);
    expect(words.startsWith(partial?.text.trim() ?? "x")).toBe(true);

    // Resume: the cut-off message is answered again; nothing was lost.
    await request.post(`${CRASH_URL}/api/session/${session.id}/resume`);
    await enqueueFake(request, [{ kind: "reply", text: "the end of the story" }]);
    const retried = await request.post(`${CRASH_URL}/api/session/${session.id}/messages`, {
      headers: { accept: "application/json" },
      data: { retry: true },
    });
    expect(retried.status()).toBe(201);
    const page = (await (await request.get(`${CRASH_URL}/api/session/${session.id}/messages`)).json()) as {
      messages: { role: string; status: string; text: string }[];
    };
    expect(page.messages.filter((m) => m.role === "user").map((m) => m.text)).toEqual([
      `[[slow:20000]] [[reply:${words}]] tell me a long story`,
    ]);
    expect(page.messages.map((m) => m.status)).toEqual(["complete", "interrupted", "complete"]);
    expect(page.messages[1].text).toBe(partial?.text);
  } finally {
    app.kill();
  }
});
