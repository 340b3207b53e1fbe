// Webhooks in SaaS mode: the server posts wherever a user says, so a webhook may only name an
// https address on the public internet (delivery checks the address again: webhooks.test.ts).
import { describe, expect, it } from "vitest";
import * as hooksRoute from "@/app/api/webhooks/route";
import { req, useHarness } from "./harness";
import { signUp, useSaas } from "./saas";

useHarness({ online: false });
const saas = useSaas();

describe("SaaS mode: webhook addresses", () => {
  it("refuses http, localhost and special-purpose addresses written as such; takes a public https name", async () => {
    const ada = await signUp(saas, "ada");
    const create = (url: string) => hooksRoute.POST(req("POST", "/api/webhooks", { url, events: ["memory.saved"] }, ada.bearer), undefined);
    for (const url of [
      "http://hooks.example.com/x",
      "https://localhost/x",
      "https://metadata.google.internal/x",
      "https://127.0.0.1/x",
      "https://10.0.0.8/x",
      "https://169.254.169.254/latest/meta-data",
      "https://[::1]/x",
      "https://[::ffff:a9fe:a9fe]/x",
      "https://[fd00:ec2::254]/x",
      "https://0x7f000001/x",
    ]) {
      const res = await create(url);
      expect(res.status, url).toBe(400);
      expect(((await res.json()) as { error: { code: string } }).error.code, url).toBe("invalid_request");
    }
    expect((await create("https://hooks.example.com/x")).status).toBe(201);
    expect((await create("https://8.8.8.8/x")).status).toBe(201);
  });
});
