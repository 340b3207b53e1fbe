// The interfaces in lib/api/types.ts are what the code returns; the schemas in this folder
// are what the document promises. Each line fails the type check when the two differ, so
// neither can change without the other.
import type { z } from "zod";
import type * as T from "@/lib/api/types";
import type { checkpointDetail, recentCheckpointList, restoreCheckpoint } from "@/lib/chat/checkpoints";
import type { memories } from "@/lib/chat/memory";
import type { resumeSession } from "@/lib/chat/recovery";
import type { ContentBlock } from "@/lib/context/types";
import type { checkpoint, recentCheckpoint } from "./checkpoints";
import type { canvas, canvasElement, canvasEvent, canvasStreamEvent } from "./canvas";
import type { CanvasElement } from "@/lib/canvas/elements";
import type { CanvasEvent } from "@/lib/canvas/reducer";
import type { CanvasJson, CanvasStreamEvent } from "@/lib/canvas/wire";
import type { cacheBreak, compaction, contextStatus, settingsView, template } from "./context";
import type { apiError } from "./errors";
import type { loadedMemory, memory, memoryHit } from "./memory";
import type { contentBlock, message, messagesPage } from "./messages";
import type { sendEvent, sendResult } from "./send";
import type { contextSettings, project, recovery, session, sessionDetail, sessionSummary } from "./sessions";
import type { AuditEventJson } from "@/lib/audit/query";
import type * as U from "@/lib/usage/types";
import type { createWebhook, DeliveryJson, WebhookJson } from "@/lib/webhooks/manage";
import type { apiKey, auditEvent, createdApiKey, createdWebhook, delivery, webhook } from "./integrations";
import type { usageReport, usageSummary } from "./usage";
import type { HistoryHit } from "@/lib/search/history";
import type { historyHit } from "./search";

/** True only when A and B are the same type (optional and readonly markers included). */
type Same<A, B> = (<X>() => X extends A ? 1 : 2) extends <X>() => X extends B ? 1 : 2 ? true : false;
type Expect<Ok extends true> = Ok;
type Flat<T> = { [K in keyof T]: T[K] };
type Out<S extends z.ZodType> = z.output<S>;
type Returns<F extends (...args: never[]) => unknown> = Awaited<ReturnType<F>>;

export type ShapeChecks = [
  Expect<Same<Out<typeof apiError>, T.ApiErrorJson>>,
  Expect<Same<Out<typeof contentBlock>, ContentBlock>>,
  Expect<Same<Out<typeof message>, T.MessageJson>>,
  Expect<Same<Out<typeof messagesPage>, T.MessagesPageJson>>,
  Expect<Same<Out<typeof contextSettings>, T.ContextSettings>>,
  Expect<Same<Out<typeof session>, T.SessionJson>>,
  Expect<Same<Out<typeof sessionSummary>, T.SessionSummaryJson>>,
  Expect<Same<Out<typeof sessionDetail>, T.SessionDetailJson>>,
  Expect<Same<Out<typeof project>, T.ProjectJson>>,
  Expect<Same<Out<typeof checkpoint>, T.CheckpointJson>>,
  Expect<Same<Out<typeof recentCheckpoint>, Returns<typeof recentCheckpointList>[number]>>,
  Expect<Same<{ checkpoint: Out<typeof checkpoint>; messages: Out<typeof message>[] }, Returns<typeof checkpointDetail>>>,
  Expect<Same<{ session: Out<typeof session>; checkpoint: Out<typeof checkpoint> }, Returns<typeof restoreCheckpoint>>>,
  Expect<Same<Out<typeof recovery>, T.RecoveryJson>>,
  Expect<
    Same<
      { session: Out<typeof session>; status: Out<typeof contextStatus>; interrupted_message: Out<typeof message> | null },
      Returns<typeof resumeSession>
    >
  >,
  Expect<Same<Out<typeof contextStatus>, T.ContextStatusJson>>,
  Expect<Same<Out<typeof settingsView>, T.SettingsJson>>,
  Expect<Same<Out<typeof cacheBreak>, NonNullable<T.CompactionJson["cache"]>>>,
  Expect<Same<Out<typeof compaction>, T.CompactionJson>>,
  Expect<Same<Out<typeof template>, T.TemplateJson>>,
  Expect<Same<Out<typeof memory>, T.MemoryJson>>,
  Expect<Same<Out<typeof memoryHit>, T.MemoryHitJson>>,
  Expect<Same<Out<typeof historyHit>, HistoryHit>>,
  Expect<Same<Out<typeof loadedMemory>, T.LoadedMemoryJson>>,
  Expect<
    Same<{ memories: Out<typeof memory>[]; loaded: Out<typeof loadedMemory>[]; facts: Out<typeof memory>[] }, Returns<typeof memories.ofSession>>
  >,
  Expect<Same<Out<typeof sendResult>, T.SendResultJson>>,
  Expect<Same<Out<typeof sendEvent>, T.SendEvent>>,
  Expect<Same<Out<typeof canvasElement>, CanvasElement>>,
  Expect<Same<Out<typeof canvasEvent>, CanvasEvent>>,
  Expect<Same<Out<typeof canvas>, CanvasJson>>,
  Expect<Same<Out<typeof canvasStreamEvent>, CanvasStreamEvent>>,
  // Compared member by member: the identity check does not see through a generic interface.
  Expect<Same<Flat<Out<typeof usageReport>>, Flat<U.UsageReportJson>>>,
  Expect<Same<Flat<Out<typeof usageSummary>>, Flat<U.UsageSummaryJson>>>,
  Expect<Same<Out<typeof auditEvent>, AuditEventJson>>,
  Expect<Same<Out<typeof webhook>, WebhookJson>>,
  Expect<Same<Flat<Out<typeof createdWebhook>>, Flat<Returns<typeof createWebhook>>>>,
  Expect<Same<Out<typeof delivery>, DeliveryJson>>,
  Expect<Same<Out<typeof apiKey>, T.ApiKeyJson>>,
  Expect<Same<Out<typeof createdApiKey>, T.CreatedApiKeyJson>>,
];
