// CSV of a usage report's rows (RFC 4180: CRLF, quoted when needed), as a download.
import "server-only";
import type { CompactionMarkJson, GroupBy, UsageMetrics, UsageReportJson } from "@/lib/contract/usage";

type Cell = string | number | boolean | null | undefined;

type Row = Record<string, unknown>;
type Column = [name: string, value: (row: Row) => Cell];

const field = (name: string): Column => [name, (r) => r[name] as Cell];
const costOf = (kind: keyof NonNullable<UsageMetrics["cost_by_kind"]>): Column => [
  `cost_${kind}_usd`,
  (r) => (r.cost_by_kind as UsageMetrics["cost_by_kind"])?.[kind],
];

const METRIC_COLUMNS: Column[] = [
  ...["requests", "input_tokens", "output_tokens", "cache_creation_input_tokens", "cache_read_input_tokens", "cost_usd"].map(field),
  costOf("input"),
  costOf("output"),
  costOf("cache_write"),
  costOf("cache_read"),
  ...["compactions", "cache_hit_rate", "calibration_calls", "calibration_error_percent", "calibration_bias_percent"].map(field),
];

const KEY_COLUMNS: Record<GroupBy, Column[]> = {
  day: [field("day")],
  session: ["session_id", "title", "deleted"].map(field),
  model: [field("model")],
  turn: [field("turn_seq")],
};

const TURN_COLUMNS: Column[] = [
  ...[
    "context_tokens",
    "estimated_input_tokens",
    "capacity_tokens",
    "fill_percent",
    "window_start_turn",
    "estimate_error_percent",
    "slide",
    "slid_turns",
  ].map(field),
  ["compaction_events", (r) => describeCompactions(r.compaction_events as CompactionMarkJson[])],
];

/** "llm 150000→60000 retention 0.95 (applied)"; several joined by "; ". */
function describeCompactions(events: CompactionMarkJson[]): string {
  return events
    .map((e) => `${e.method} ${e.pre_tokens}→${e.post_tokens} retention ${e.retention_rate} (${e.status})`)
    .join("; ");
}

function cell(v: Cell): string {
  if (v === null || v === undefined) return "";
  if (typeof v !== "string") return String(v);
  // A title like "=HYPERLINK(…)" would run as a formula in a spreadsheet; a leading quote defuses it.
  const text = /^[=+\-@\t\r]/.test(v) ? `'${v}` : v;
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

export function usageCsv(report: UsageReportJson): string {
  const columns = [...KEY_COLUMNS[report.group_by], ...METRIC_COLUMNS, ...(report.group_by === "turn" ? TURN_COLUMNS : [])];
  const lines = [columns.map(([name]) => name).join(",")];
  for (const row of report.rows) lines.push(columns.map(([, value]) => cell(value(row as unknown as Row))).join(","));
  return lines.join("\r\n") + "\r\n";
}

function filename(report: UsageReportJson): string {
  if (report.group_by === "turn") return `usage-turns-${report.session_id}.csv`;
  const day = (iso: string | null) => (iso ?? new Date().toISOString()).slice(0, 10);
  return `usage-by-${report.group_by}-${day(report.from)}-to-${day(report.to)}.csv`;
}

export function csvResponse(report: UsageReportJson): Response {
  return new Response(usageCsv(report), {
    headers: {
      "content-type": "text/csv; charset=utf-8",
      "content-disposition": `attachment; filename="${filename(report)}"`,
      "cache-control": "no-store",
    },
  });
}

/** `format=csv`, or an Accept header that asks for text/csv (and `format` does not say json). */
export function wantsCsv(req: Request, format: "json" | "csv" | undefined): boolean {
  if (format) return format === "csv";
  const accept = req.headers.get("accept") ?? "";
  return accept.split(",").some((part) => {
    const [type, ...params] = part.split(";").map((s) => s.trim().toLowerCase());
    return type === "text/csv" && !params.some((p) => /^q=0(\.0*)?$/.test(p));
  });
}
