// OpenTelemetry spans of a turn, recorded by an in-memory exporter registered the way
// instrumentation.ts registers the OTLP one (lib/tracing.ts startTracing): a send through the
// real route produces one turn span with its stages (memory, plan, Claude, save) under it, and an
// automatic compaction is a span of the turn that ran it, its summarizer call under it.
import { afterAll, describe, expect, it } from "vitest";
import { InMemorySpanExporter, type ReadableSpan } from "@opentelemetry/sdk-trace";
import { inSpan, startTracing, tracingOn } from "@/lib/tracing";
import { idle, newSession, postMessage, prose, readSse, useHarness } from "./harness";

const h = useHarness();
const exporter = new InMemorySpanExporter();
let stopTracing: (() => Promise<void>) | null = null;

afterAll(async () => {
  await stopTracing?.();
});

const idOf = (s: ReadableSpan) => s.spanContext().spanId;
const parentOf = (s: ReadableSpan, all: ReadableSpan[]) => all.find((p) => idOf(p) === s.parentSpanContext?.spanId);

function ancestors(s: ReadableSpan, all: ReadableSpan[]): string[] {
  const names: string[] = [];
  for (let p = parentOf(s, all); p; p = parentOf(p, all)) names.push(p.name);
  return names;
}

describe("tracing", () => {
  it("is off until started: a stage runs without a span", async () => {
    expect(tracingOn()).toBe(false);
    expect(await inSpan("plan", {}, async (span) => span)).toBeNull();
    stopTracing = await startTracing({ exporter });
    expect(tracingOn()).toBe(true);
  });

  it("records a send's stages under one turn span", async () => {
    exporter.reset();
    const s = await newSession();
    const events = await postMessage(s.id, { content: "[[reply:Traced.]] Trace this turn, please." }).then(readSse);
    expect(events.at(-1)?.event).toBe("done");
    await idle(h, s.id);
    const spans = exporter.getFinishedSpans();
    const turns = spans.filter((x) => x.name === "threadkeeper.turn");
    expect(turns).toHaveLength(1);
    const turn = turns[0];
    expect(turn.attributes["threadkeeper.session_id"]).toBe(s.id);
    expect(turn.parentSpanContext).toBeUndefined();
    const stages = spans.filter((x) => x.parentSpanContext?.spanId === idOf(turn)).map((x) => x.name);
    for (const stage of ["threadkeeper.memory", "threadkeeper.plan", "threadkeeper.claude", "threadkeeper.save"]) expect(stages).toContain(stage);
    // One trace: every span of the send shares the turn's trace id.
    expect(new Set(spans.map((x) => x.spanContext().traceId))).toEqual(new Set([turn.spanContext().traceId]));
    const claude = spans.find((x) => x.name === "threadkeeper.claude" && x.parentSpanContext?.spanId === idOf(turn));
    expect(claude?.attributes["gen_ai.request.model"]).toBe("claude-haiku-4-5");
    expect(claude?.attributes["gen_ai.operation.name"]).toBe("chat");
    expect(Number(claude?.attributes["gen_ai.usage.output_tokens"])).toBeGreaterThan(0);
    // The stages ran in order within the turn.
    const start = (name: string) => spans.find((x) => x.name === name && x.parentSpanContext?.spanId === idOf(turn))?.startTime[0] ?? -1;
    expect(start("threadkeeper.plan")).toBeLessThanOrEqual(start("threadkeeper.save"));
  });

  it("records a failed Claude call as an error span", async () => {
    const s = await newSession();
    h.fake.enqueue({ kind: "error", status: 400, message: "rejected on purpose" });
    exporter.reset();
    await postMessage(s.id, { content: "This one fails." }).then(readSse);
    await idle(h, s.id);
    const claude = exporter.getFinishedSpans().find((x) => x.name === "threadkeeper.claude");
    expect(claude?.status.code).toBe(2); // SpanStatusCode.ERROR
  });

  it("records an automatic compaction inside the turn that ran it, its summarizer call under it", async () => {
    const s = await newSession({ settings: { output_reservation: 0.5, safety_buffer: 0.3 } });
    let spans: ReadableSpan[] = [];
    for (let i = 0; i < 10; i++) {
      exporter.reset();
      const events = await postMessage(s.id, { content: `[[reply:Noted.]] ${prose(11_000, i)}` }).then(readSse);
      await idle(h, s.id);
      if (events.some((e) => e.event === "compaction")) {
        spans = exporter.getFinishedSpans();
        break;
      }
    }
    const compaction = spans.find((x) => x.name === "threadkeeper.compaction");
    expect(compaction, "no compaction in ten large sends").toBeDefined();
    if (!compaction) return;
    expect(compaction.attributes["threadkeeper.trigger"]).toBe("auto");
    expect(ancestors(compaction, spans)).toContain("threadkeeper.turn");
    const summaries = spans.filter((x) => x.name === "threadkeeper.claude" && x.attributes["gen_ai.operation.name"] === "summary");
    for (const summary of summaries) expect(ancestors(summary, spans)[0]).toBe("threadkeeper.compaction");
  });
});
