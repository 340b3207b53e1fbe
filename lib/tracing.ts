// OpenTelemetry spans around a turn's stages: the turn, and inside it planning the request,
// loading memories, the Claude call, saving the reply and compaction. Off unless an OTLP
// endpoint is configured (OTEL_EXPORTER_OTLP_ENDPOINT or OTEL_EXPORTER_OTLP_TRACES_ENDPOINT):
// then instrumentation.ts calls startTracing() at start-up. While off, inSpan() calls its
// function straight away: no span, no context switch, nothing allocated.
//
// The switch is on globalThis (Next.js evaluates a module once per bundle layer, and
// instrumentation.ts is in another layer than the routes); @opentelemetry/api keeps its
// registered provider on globalThis itself. The SDK is loaded only when tracing starts.
import "server-only";
import { SpanStatusCode, trace, type Attributes, type Span } from "@opentelemetry/api";
import type { SpanExporter } from "@opentelemetry/sdk-trace";
import { env } from "@/lib/env";

const TRACER = "threadkeeper";
const state = ((globalThis as { __threadkeeperTracing?: { on: boolean } }).__threadkeeperTracing ??= { on: false });

/** Whether spans are being recorded in this process. */
export function tracingOn(): boolean {
  return state.on;
}

/** Runs `fn` in a span named `threadkeeper.<stage>` (a child of the current one); a failure marks the span and is rethrown. */
export async function inSpan<T>(stage: string, attributes: Attributes, fn: (span: Span | null) => Promise<T>): Promise<T> {
  if (!state.on) return fn(null);
  return trace.getTracer(TRACER).startActiveSpan(`threadkeeper.${stage}`, { attributes }, async (span) => {
    try {
      return await fn(span);
    } catch (err) {
      span.recordException(err instanceof Error ? err : String(err));
      span.setStatus({ code: SpanStatusCode.ERROR, message: err instanceof Error ? err.name : "error" });
      throw err;
    } finally {
      span.end();
    }
  });
}

/** Whether the environment names an OTLP endpoint for traces. */
export function tracesConfigured(): boolean {
  const e = env();
  return Boolean(e.OTEL_EXPORTER_OTLP_ENDPOINT || e.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT);
}

/**
 * Registers a tracer provider (with the AsyncLocalStorage context manager, so spans nest across
 * awaits) and turns spans on. Without an exporter, spans go in batches to the OTLP/HTTP
 * endpoint the standard OTEL_EXPORTER_OTLP_* variables name; tests pass an in-memory one, sent
 * span by span. Answers a function that flushes what is pending and turns tracing off again.
 */
export async function startTracing(opts: { exporter?: SpanExporter; serviceName?: string } = {}): Promise<() => Promise<void>> {
  const [{ context, propagation }, sdk, { AsyncLocalStorageContextManager }, { resourceFromAttributes }, { W3CTraceContextPropagator }] = await Promise.all([
    import("@opentelemetry/api"),
    import("@opentelemetry/sdk-trace"),
    import("@opentelemetry/context-async-hooks"),
    import("@opentelemetry/resources"),
    import("@opentelemetry/core"),
  ]);
  const exporter = opts.exporter ?? new (await import("@opentelemetry/exporter-trace-otlp-http")).OTLPTraceExporter();
  const processor = opts.exporter ? new sdk.SimpleSpanProcessor({ exporter }) : new sdk.BatchSpanProcessor({ exporter });
  const provider = new sdk.TracerProvider({
    resource: resourceFromAttributes({ "service.name": opts.serviceName ?? env().OTEL_SERVICE_NAME ?? "threadkeeper" }),
    spanProcessors: [processor],
  });
  const contextManager = new AsyncLocalStorageContextManager();
  context.setGlobalContextManager(contextManager.enable());
  propagation.setGlobalPropagator(new W3CTraceContextPropagator());
  trace.setGlobalTracerProvider(provider);
  state.on = true;
  return async () => {
    state.on = false;
    await provider.shutdown();
    trace.disable();
    context.disable();
    propagation.disable();
  };
}
