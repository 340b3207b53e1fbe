// Claude's refusals read as sentences with a next step (issue 33): never the raw answer
// (`400 {"type":"error",...}`), always what happened, that the message is saved, and what to do.
import { describe, expect, it } from "vitest";
import { newSession, sendJson, useHarness } from "./harness";

const h = useHarness();

describe("Claude's errors, as the app says them", () => {
  it("a 400 gives Claude's own words and the next step, with no JSON", async () => {
    const s = await newSession();
    h.fake.enqueue({ kind: "error", status: 400, message: "messages.0.content.1.image.source.base64: image exceeds 5 MB maximum" });
    const { res, body } = await sendJson(s.id, "Look at this");
    expect(res.status).toBe(502);
    expect(body.error?.code).toBe("upstream_rejected");
    expect(body.error?.message).toBe(
      "Claude could not accept this request: messages.0.content.1.image.source.base64: image exceeds 5 MB maximum. Your message is saved; edit your message (or remove an attachment) and send it again.",
    );
    expect(body.error?.message).not.toMatch(/[{}]|"type"/);
  });

  it("a refused key says where to fix it", async () => {
    const s = await newSession();
    h.fake.enqueue({ kind: "error", status: 401 });
    const refused = await sendJson(s.id, "Hello");
    expect(refused.body.error?.code).toBe("upstream_auth");
    expect(refused.body.error?.message).toBe("Claude refused the API key. Your message is saved. Check the key in Account settings (or ANTHROPIC_API_KEY), then retry.");
  });
});
