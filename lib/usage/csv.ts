// CSV of a usage report's rows (RFC 4180: CRLF, quoted when needed), as a download.
import type { CompactionMarkJson, GroupBy, UsageMetrics, UsageReportJson } from "./types";

type Cell = string | number | boolean | null | undefined;

const METRIC_COLUMNS: (keyof UsageMetrics)[] = [
  "requests",
  "input_tokens",
  "output_tokens",
  "cache_creation_input_tokens",
  "cache_read_input_tokens",
  "cost_usd",
  "compactions",
  "cache_hit_rate",
  "calibration_calls",
  "calibration_error_percent",
  "calibration_bias_percent",
];

const KEY_COLUMNS: Record<GroupBy, string[]> = {
  day: ["day"],
  session: ["session_id", "title", "deleted"],
  model: ["model"],
  turn: ["turn_seq"],
};

const TURN_COLUMNS = [
  "context_tokens",
  "estimated_input_tokens",
  "capacity_tokens",
  "fill_percent",
  "window_start_turn",
  "estimate_error_percent",
  "slide",
  "slid_turns",
  "compaction_events",
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
  const lines = [columns.join(",")];
  for (const row of report.rows) {
    const values = row as unknown as Record<string, Cell | CompactionMarkJson[]>;
    lines.push(
      columns
        .map((c) => {
          const v = values[c];
          return cell(Array.isArray(v) ? describeCompactions(v) : v);
        })
        .join(","),
    );
  }
  return lines.join("\r\n") + "\r\n";
}

function filename(report: UsageReportJson): string {
  if (report.group_by === "turn") return `usage-turns-${report.session_id}.csv`;
  const day = (iso: string | null) => (iso ?? "").slice(0, 10);
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
