// LoCoMo's import mode (issue 34, BENCH_LOCOMO_IMPORT=1): each conversation written, at run
// time into a temporary folder, as a ChatGPT export (conversations.json: a `mapping` tree under a
// hidden system node, `current_node`, epoch `create_time`s, a model slug) and as a Claude.ai
// export (conversations.json: `chat_messages` of `sender` and `content[]` blocks with an empty
// `text`, as newer exports write it, `parent_message_uuid`, ISO `created_at`), one exported
// conversation per LoCoMo session, each turn's text as native ingestion feeds it. The file goes
// through the import the API's background job runs (uploadTarget, startImport, the job read
// back from its row), then the same history-search and memory measures run on what it stored.
// Each turn is stamped with its session's date and time plus its place in seconds, so whether
// the original times survive is checked message by message.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { withUser } from "@/lib/db";
import { getImport } from "@/lib/db/imports";
import type { ImportFormat } from "@/lib/import/types";
import { startImport, uploadTarget } from "@/lib/operations/import-job";
import type { LocomoConversation, LocomoSession } from "./locomo-data";
import type { Ingest, Ingested, RoleMode, SearchPassResult } from "./locomo-passes";
import { table } from "./report";
import { withEnv } from "./stats";

export type ImportedFormat = Extract<ImportFormat, "chatgpt" | "claude">;
export const IMPORT_FORMATS: readonly ImportedFormat[] = ["chatgpt", "claude"];
const LABEL: Record<ImportedFormat | "native", string> = { native: "native", chatgpt: "ChatGPT import", claude: "Claude.ai import" };

export const importModeOn = () => process.env.BENCH_LOCOMO_IMPORT === "1";

const MONTHS = ["january", "february", "march", "april", "may", "june", "july", "august", "september", "october", "november", "december"];

/**
 * "1:56 pm on 8 May, 2023" as the instant it names on this machine's clock: the transcript
 * carries no zone, and native ingestion reads the same text as local time (lib/context/dates.ts).
 */
export function sessionStart(date: string): Date {
  const m = /^(\d{1,2}):(\d{2}) ([ap])m on (\d{1,2}) ([A-Za-z]+),? (\d{4})$/.exec(date.trim());
  const month = m ? MONTHS.indexOf(m[5].toLowerCase()) : -1;
  if (!m || month < 0) throw new Error(`LoCoMo date not understood: "${date}"`);
  const hour = (Number(m[1]) % 12) + (m[3] === "p" ? 12 : 0);
  return new Date(Number(m[6]), month, Number(m[4]), hour, Number(m[2]));
}

/** When turn `i` of a session was said: the session's time plus i seconds (each message its own time, as in a real export). */
const turnTime = (s: LocomoSession, i: number) => new Date(sessionStart(s.date).getTime() + i * 1000);
const sourceId = (c: LocomoConversation, s: LocomoSession) => `locomo-${c.id}-session-${s.n}`;
const isUser = (c: LocomoConversation, speaker: string, roles: RoleMode) => roles === "user" || speaker === c.speakers[0];

/** The conversation as ChatGPT's conversations.json. */
export function chatGptExport(c: LocomoConversation, roles: RoleMode): unknown[] {
  return c.sessions.map((s) => {
    const id = sourceId(c, s);
    const root = "client-created-root";
    const system = `${id}-system`;
    const node = (i: number) => `${id}-turn-${i}`;
    const mapping: Record<string, unknown> = {
      [root]: { id: root, message: null, parent: null, children: [system] },
      // ChatGPT opens every conversation with a hidden system message: the importer must skip it.
      [system]: {
        id: system,
        parent: root,
        children: [node(0)],
        message: { id: system, author: { role: "system", name: null, metadata: {} }, create_time: null, content: { content_type: "text", parts: [""] }, status: "finished_successfully", end_turn: true, weight: 0, recipient: "all", metadata: { is_visually_hidden_from_conversation: true } },
      },
    };
    s.turns.forEach((t, i) => {
      const user = isUser(c, t.speaker, roles);
      mapping[node(i)] = {
        id: node(i),
        parent: i === 0 ? system : node(i - 1),
        children: i === s.turns.length - 1 ? [] : [node(i + 1)],
        message: {
          id: node(i),
          author: { role: user ? "user" : "assistant", name: null, metadata: {} },
          create_time: turnTime(s, i).getTime() / 1000,
          update_time: null,
          content: { content_type: "text", parts: [t.message] },
          status: "finished_successfully",
          end_turn: user ? null : true,
          weight: 1,
          recipient: "all",
          metadata: user ? {} : { model_slug: "gpt-4o", finish_details: { type: "stop" } },
        },
      };
    });
    const last = s.turns.length - 1;
    return {
      id,
      conversation_id: id,
      title: s.date,
      create_time: turnTime(s, 0).getTime() / 1000,
      update_time: turnTime(s, last).getTime() / 1000,
      current_node: node(last),
      default_model_slug: "gpt-4o",
      is_archived: false,
      safe_urls: [],
      mapping,
    };
  });
}

/** The conversation as Claude.ai's conversations.json. */
export function claudeExport(c: LocomoConversation, roles: RoleMode): unknown[] {
  return c.sessions.map((s) => {
    const id = sourceId(c, s);
    const uuid = (i: number) => `${id}-message-${i}`;
    const last = s.turns.length - 1;
    return {
      uuid: id,
      name: s.date,
      summary: "",
      created_at: turnTime(s, 0).toISOString(),
      updated_at: turnTime(s, last).toISOString(),
      account: { uuid: "locomo-account" },
      chat_messages: s.turns.map((t, i) => {
        const at = turnTime(s, i).toISOString();
        return {
          uuid: uuid(i),
          sender: isUser(c, t.speaker, roles) ? "human" : "assistant",
          text: "",
          content: [{ type: "text", text: t.message, start_timestamp: at, stop_timestamp: at, citations: [] }],
          attachments: [],
          files: [],
          created_at: at,
          updated_at: at,
          parent_message_uuid: i === 0 ? "00000000-0000-4000-8000-000000000000" : uuid(i - 1),
          index: i,
        };
      }),
    };
  });
}

/** What the import kept of the turns, counted from what it stored. */
export interface ImportFidelity {
  sessions: number;
  turns: number;
  messages: number;
  /** Turns whose text was found, in order, in a stored message. */
  turnsFound: number;
  /** Messages holding exactly one turn whose said_at is the turn's exported time. */
  timesKept: number;
  importSeconds: number;
}

interface StoredRow {
  source: string;
  session_id: string;
  seq: number;
  text: string;
  said_at: Date | null;
}

/** Imports `c` as an export of `format` for the user through the background job, and maps what it stored to turns. */
export function ingestImported(format: ImportedFormat, fidelity: (f: ImportFidelity) => void): Ingest {
  return async (uid, c, roles): Promise<Ingested> => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "tk-locomo-import-"));
    try {
      return await withEnv({ THREADKEEPER_FILES_DIR: path.join(dir, "files") }, async () => {
        const file = path.join(dir, "conversations.json");
        fs.writeFileSync(file, JSON.stringify(format === "chatgpt" ? chatGptExport(c, roles) : claudeExport(c, roles)));
        const t0 = performance.now();
        const target = await uploadTarget();
        fs.copyFileSync(file, target);
        const job = await startImport(uid, target, { fileName: "conversations.json", bytes: fs.statSync(file).size });
        for (;;) {
          const row = await withUser(uid, (tx) => getImport(tx, uid, job.id));
          if (row && row.status !== "running") {
            if (row.status !== "done" || row.imported !== c.sessions.length || row.failed > 0) {
              throw new Error(`LoCoMo ${c.id} as ${format}: import ${row.status}, ${row.imported} of ${c.sessions.length} imported, ${row.failed} failed ${JSON.stringify(row.errors)} ${row.error ?? ""}`);
            }
            break;
          }
          await new Promise((r) => setTimeout(r, 100));
        }
        const importSeconds = (performance.now() - t0) / 1000;
        const rows = await withUser(uid, (tx) =>
          tx.query<StoredRow>(
            `select s.import_source_id as source, s.id as session_id, m.seq, m.text, m.said_at from sessions s join messages m on m.session_id = s.id
              where s.user_id = $1 and s.import_format = $2 order by s.import_source_id, m.seq`,
            [uid, format],
          ),
        );
        return mapTurns(c, rows, format, importSeconds, fidelity);
      });
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  };
}

function mapTurns(c: LocomoConversation, rows: readonly StoredRow[], format: ImportedFormat, importSeconds: number, fidelity: (f: ImportFidelity) => void): Ingested {
  const sessionOf = new Map<number, string>();
  const where = new Map<string, string[]>();
  const f: ImportFidelity = { sessions: 0, turns: 0, messages: rows.length, turnsFound: 0, timesKept: 0, importSeconds };
  for (const s of c.sessions) {
    f.turns += s.turns.length;
    const mine = rows.filter((r) => r.source === sourceId(c, s));
    if (mine.length === 0) continue;
    f.sessions++;
    sessionOf.set(s.n, mine[0].session_id);
    // In order: a message holds the next turn(s) whose text it contains (a source may join two).
    let j = 0;
    for (const r of mine) {
      const held: number[] = [];
      while (j < s.turns.length && r.text.includes(s.turns[j].message)) held.push(j++);
      where.set(`${r.session_id}:${r.seq}`, held.map((i) => s.turns[i].diaId));
      f.turnsFound += held.length;
      if (held.length === 1 && r.said_at?.getTime() === turnTime(s, held[0]).getTime()) f.timesKept++;
    }
  }
  if (f.turnsFound < f.turns) console.log(`    ${LABEL[format]} of ${c.id}: ${f.turns - f.turnsFound} of ${f.turns} turns not found in what was stored`);
  fidelity(f);
  return { sessionOf, where };
}

// ------------------------------------------------------------------ printing

export interface ImportModeResult {
  id: string;
  native: SearchPassResult;
  imported: Record<ImportedFormat, { search: SearchPassResult; fidelity: ImportFidelity }>;
}

const within = (rank: number | null, k: number) => rank !== null && rank <= k;
const share = (rows: SearchPassResult["rows"], f: (r: SearchPassResult["rows"][number]) => boolean) => (rows.length === 0 ? Number.NaN : (100 * rows.filter(f).length) / rows.length);
const p1 = (x: number) => (Number.isFinite(x) ? `${x.toFixed(1)} %` : "-");

function measures(passes: readonly SearchPassResult[]) {
  const rows = passes.flatMap((p) => p.rows);
  return {
    history: share(rows, (r) => within(r.history, 10)),
    archived: share(rows, (r) => within(r.archived, 5)),
    answer: share(rows, (r) => r.archivedAnswer),
    summaries: passes.reduce((n, p) => n + p.memories.summaries, 0),
    facts: passes.reduce((n, p) => n + p.memories.facts, 0),
  };
}

/** Questions whose outcome (evidence in the top 10 / top 5) differs between two passes over the same questions. */
function changed(a: SearchPassResult, b: SearchPassResult): { history: number; archived: number } {
  let history = 0;
  let archived = 0;
  a.rows.forEach((r, i) => {
    if (within(r.history, 10) !== within(b.rows[i].history, 10)) history++;
    if (within(r.archived, 5) !== within(b.rows[i].archived, 5)) archived++;
  });
  return { history, archived };
}

/** One conversation's line as soon as it is measured, so a long run shows its figures as it goes. */
export function importModeLine(r: ImportModeResult): string {
  const cols = [r.native, ...IMPORT_FORMATS.map((k) => r.imported[k].search)];
  const diffs = IMPORT_FORMATS.map((k) => changed(r.native, r.imported[k].search));
  return `    history @10 / archived @5, native | ChatGPT | Claude.ai: ${cols.map((p) => { const x = measures([p]); return `${p1(x.history)} / ${p1(x.archived)}`; }).join(" | ")}; outcomes changed: ${diffs.map((d) => `${d.history} / ${d.archived}`).join(" | ")}`;
}

export function printImportMode(rs: readonly ImportModeResult[]): void {
  if (rs.length === 0) return;
  const cols = ["native", ...IMPORT_FORMATS] as const;
  const passes = (k: (typeof cols)[number], only?: ImportModeResult) => (only ? [only] : rs).map((r) => (k === "native" ? r.native : r.imported[k].search));
  const m = Object.fromEntries(cols.map((k) => [k, measures(passes(k))])) as Record<(typeof cols)[number], ReturnType<typeof measures>>;
  const fid = (k: ImportedFormat, f: (x: ImportFidelity) => number) => rs.reduce((n, r) => n + f(r.imported[k].fidelity), 0);
  const diff = (k: ImportedFormat) => rs.reduce((n, r) => { const d = changed(r.native, r.imported[k].search); return { history: n.history + d.history, archived: n.archived + d.archived }; }, { history: 0, archived: 0 });
  console.log(`\n4. Import mode (BENCH_LOCOMO_IMPORT=1): the same conversations imported as ChatGPT and Claude.ai exports through the import job, ${rs.length} conversations:`);
  console.log(
    table(
      ["measure", ...cols.map((k) => LABEL[k])],
      [
        ["history search: evidence turn @10", ...cols.map((k) => p1(m[k].history))],
        ["archived memory: evidence session @5", ...cols.map((k) => p1(m[k].archived))],
        ["answer words in the top 5 memories", ...cols.map((k) => p1(m[k].answer))],
        ["memories (summaries + facts)", ...cols.map((k) => `${m[k].summaries} + ${m[k].facts}`)],
        ["questions whose outcome differs from native (history / memory)", "", ...IMPORT_FORMATS.map((k) => `${diff(k).history} / ${diff(k).archived}`)],
        ["sessions / messages stored", "", ...IMPORT_FORMATS.map((k) => `${fid(k, (f) => f.sessions)} / ${fid(k, (f) => f.messages)}`)],
        ["turns found in order in what was stored", "", ...IMPORT_FORMATS.map((k) => `${fid(k, (f) => f.turnsFound)} of ${fid(k, (f) => f.turns)}`)],
        ["original time kept (said_at)", "", ...IMPORT_FORMATS.map((k) => `${fid(k, (f) => f.timesKept)} of ${fid(k, (f) => f.messages)}`)],
        ["import, end to end", "", ...IMPORT_FORMATS.map((k) => `${fid(k, (f) => f.importSeconds).toFixed(1)} s`)],
      ],
    ),
  );
  console.log("  per conversation, history @10 / archived @5:");
  console.log(table(["conversation", ...cols.map((k) => LABEL[k])], rs.map((r) => [r.id, ...cols.map((k) => { const x = measures(passes(k, r)); return `${p1(x.history)} / ${p1(x.archived)}`; })])));
}

const r1 = (x: number) => (Number.isFinite(x) ? Math.round(x * 10) / 10 : null);

export function importModeJson(rs: readonly ImportModeResult[]) {
  if (rs.length === 0) return undefined;
  const pick = (x: ReturnType<typeof measures>) => ({ history: r1(x.history), archived: r1(x.archived), archived_answer: r1(x.answer) });
  return {
    native: pick(measures(rs.map((r) => r.native))),
    ...Object.fromEntries(IMPORT_FORMATS.map((k) => [k, pick(measures(rs.map((r) => r.imported[k].search)))])),
  };
}
