// Slash commands the composer offers. Each command parses its own arguments and acts
// through the context the composer hands it, so adding one (/save-progress, /checkpoint)
// is one entry in COMMANDS and nothing in the composer.
import type { CompactRequest } from "@/lib/client/api/context";
import type { CommandFeedback } from "@/lib/client/conversation-store";
import { useHistorySearch } from "@/lib/client/history-search-store";

/** What a command may do to the open conversation. */
export interface CommandContext {
  compact(request: CompactRequest): Promise<void>;
  /** Shows a line above the composer (or clears it); never a chat message. */
  feedback(feedback: CommandFeedback | null): void;
  /** Saves a checkpoint of the open session with an optional label. */
  saveCheckpoint(label?: string): Promise<void>;
}

/** The text was understood (or rejected) by the command; false keeps it in the composer. */
export type CommandOutcome = { ok: true } | { ok: false; message: string };

export interface ComposerCommand {
  /** Without the slash, e.g. "compact". */
  name: string;
  description: string;
  /** Placeholder for what may follow the command, e.g. "[instructions]". */
  args?: string;
  /** Checks the arguments and starts the command; a parse error leaves the text for fixing. */
  run(args: string, ctx: CommandContext): CommandOutcome;
}

type CompactArgs = { ok: true; request: CompactRequest } | { ok: false; message: string };

const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const COMPACT_USAGE = "Usage: /compact [--preset name | --template id] [instructions]";

/**
 * `/compact` arguments: leading options, then free text as instructions for the summary.
 * A typed /compact is a clear request: it condenses below the threshold too (`--force` is
 * still accepted, and changes nothing); the server refuses only when the gain would be small.
 * `--preset debugging` (or `--preset=debugging`)
 * picks a preset; `--template <id>` a saved template. Only leading words starting with
 * `--` are options, so instructions may mention "--" freely.
 */
function parseCompactArgs(args: string): CompactArgs {
  const request: CompactRequest = { force: true };
  let rest = args.trimStart();
  for (;;) {
    const m = /^(--?[A-Za-z][\w-]*)(?:=(\S*))?(?:\s+|$)/.exec(rest);
    if (!m) break;
    const flag = m[1].toLowerCase();
    rest = rest.slice(m[0].length);
    const takeValue = (): string | null => {
      if (m[2] !== undefined) return m[2] || null;
      const v = /^(\S+)(?:\s+|$)/.exec(rest);
      if (!v || v[1].startsWith("--")) return null;
      rest = rest.slice(v[0].length);
      return v[1];
    };
    if (flag === "--force" || flag === "-f") {
      // The default already.
    } else if (flag === "--preset") {
      const value = takeValue();
      if (!value) return { ok: false, message: `--preset needs a name, e.g. --preset debugging. ${COMPACT_USAGE}` };
      request.preset = value.toLowerCase().replace(/-/g, "_");
    } else if (flag === "--template") {
      const value = takeValue();
      if (!value || !UUID_RE.test(value)) {
        return { ok: false, message: `--template needs a saved template's id (or use --preset). ${COMPACT_USAGE}` };
      }
      request.template_id = value;
    } else {
      return { ok: false, message: `Unknown option ${m[1]}. ${COMPACT_USAGE}` };
    }
  }
  if (request.preset && request.template_id) {
    return { ok: false, message: `Give either --preset or --template, not both. ${COMPACT_USAGE}` };
  }
  const instructions = rest.trim();
  if (instructions) request.instructions = instructions;
  return { ok: true, request };
}

/** A checkpoint label: the rest of the line, with one pair of surrounding quotes removed. */
function parseCheckpointLabel(args: string): { ok: true; label?: string } | { ok: false; message: string } {
  let label = args.trim();
  const quoted = /^(["'“‘])([\s\S]*)(["'”’])$/.exec(label);
  if (quoted) label = quoted[2].trim();
  if (label.length > 200) return { ok: false, message: "A checkpoint label can be at most 200 characters." };
  return label ? { ok: true, label } : { ok: true };
}

function checkpointCommand(name: string, description: string): ComposerCommand {
  return {
    name,
    description,
    args: '["label"]',
    run(args, ctx) {
      const parsed = parseCheckpointLabel(args);
      if (!parsed.ok) return parsed;
      void ctx.saveCheckpoint(parsed.label);
      return { ok: true };
    },
  };
}

const COMMANDS: readonly ComposerCommand[] = [
  {
    name: "compact",
    description: "Condense older turns into a summary now",
    args: "[instructions]",
    run(args, ctx) {
      const parsed = parseCompactArgs(args);
      if (!parsed.ok) return parsed;
      ctx.feedback(null);
      void ctx.compact(parsed.request);
      return { ok: true };
    },
  },
  checkpointCommand("save-progress", "Save a checkpoint you can resume from later"),
  checkpointCommand("checkpoint", "Save a checkpoint (same as /save-progress)"),
  {
    name: "search",
    description: "Search everything said in every session",
    args: "[words]",
    run(args) {
      useHistorySearch.getState().show(args.trim());
      return { ok: true };
    },
  },
];

/** Commands whose name starts with what follows the slash; only while the first word is still being typed. */
export function matchCommands(text: string, commands: readonly ComposerCommand[] = COMMANDS): ComposerCommand[] {
  const m = /^\/(\S*)$/.exec(text);
  if (!m) return [];
  const prefix = m[1].toLowerCase();
  return commands.filter((c) => c.name.toLowerCase().startsWith(prefix));
}

/**
 * The command a submitted text invokes, with its argument text. Only known commands
 * count: "/usr/bin is missing" is an ordinary message.
 */
export function parseCommandLine(
  text: string,
  commands: readonly ComposerCommand[] = COMMANDS,
): { command: ComposerCommand; args: string } | null {
  const m = /^\/(\S+)(?:\s+([\s\S]*))?$/.exec(text.trim());
  if (!m) return null;
  const name = m[1].toLowerCase();
  const command = commands.find((c) => c.name.toLowerCase() === name);
  return command ? { command, args: m[2] ?? "" } : null;
}
