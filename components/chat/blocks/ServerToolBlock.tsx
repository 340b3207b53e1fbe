"use client";
// The tools the API runs for Claude, each with its result, as quiet rows: "Searched the web:
// …" open to the results (title and site, links that leave this page safely), "Fetched
// example.com", "Ran code" open to the code and its output, an MCP server's tool. Every field
// is guarded: a result of a shape we do not know still shows, as JSON.
import { Globe, Link as LinkIcon, Plug, Search, SquarePen, Terminal, TriangleAlert, Wrench } from "lucide-react";
import { asRecord, domainOf, list, num, prettyJson, safeHref, str, type Loose } from "@/lib/client/content-blocks";
import { CodeBlock } from "@/components/markdown/CodeBlock";
import { Disclosure, Pre } from "@/components/chat/blocks/Disclosure";

const ICON = "h-3.5 w-3.5";
const EXTERNAL = { target: "_blank", rel: "noopener noreferrer nofollow" } as const;

const ERRORS: Record<string, string> = {
  too_many_requests: "too many requests, try again later",
  invalid_input: "the input was not valid",
  invalid_tool_input: "the input was not valid",
  max_uses_exceeded: "the tool was used as often as allowed",
  query_too_long: "the query was too long",
  unavailable: "the service was unavailable",
  url_not_accessible: "the page could not be reached",
  url_not_allowed: "that address is not allowed",
  url_too_long: "the address was too long",
  unsupported_content_type: "that kind of content is not supported",
  execution_time_exceeded: "it ran out of time",
  container_expired: "its container had expired",
  output_file_too_large: "its output was too large",
  file_not_found: "the file was not found",
  pattern_too_long: "the pattern was too long",
};

/** The error a result reports, in words, or null when it is no error. */
export function resultError(result: Loose | null): string | null {
  if (!result) return null;
  const content = asRecord(result.content);
  const isError = result.is_error === true || (content !== null && (str(content.type) ?? "").endsWith("_error"));
  if (!isError) return null;
  const code = content ? str(content.error_code) : null;
  const detail = content ? str(content.error_message) : null;
  const words = code ? (ERRORS[code] ?? code.replace(/_/g, " ")) : "it failed";
  return detail ? `${words}: ${detail}` : words;
}

function ErrorLine({ text }: { text: string }) {
  return (
    <p role="note" data-testid="tool-error" className="flex items-start gap-1.5 py-1 text-xs text-amber-800 dark:text-amber-300">
      <TriangleAlert aria-hidden className="mt-px h-3.5 w-3.5 shrink-0" />
      <span>Failed: {text}</span>
    </p>
  );
}

function WebSearch({ use, result, live }: { use: Loose | null; result: Loose | null; live: boolean }) {
  const query = str(asRecord(use?.input)?.query);
  const error = resultError(result);
  const results = list(result?.content).map(asRecord).filter((r): r is Loose => r !== null && str(r.type) !== "web_search_tool_result_error");
  const pending = !result && live;
  const label = `${pending ? "Searching the web" : "Searched the web"}${query ? `: ${query}` : ""}${pending ? "…" : ""}`;
  const meta = error ? "failed" : result ? `${results.length} result${results.length === 1 ? "" : "s"}` : null;
  return (
    <Disclosure testId="web-search" icon={<Globe className={ICON} />} label={label} meta={meta}>
      {error && <ErrorLine text={error} />}
      {!result && !error && <p className="py-1 text-xs text-zinc-600 dark:text-zinc-400">{pending ? "Waiting for results…" : "No results were kept."}</p>}
      {results.length > 0 && (
        <ul className="space-y-1 py-1" data-testid="web-search-results">
          {results.map((r, i) => {
            const href = safeHref(r.url);
            const title = str(r.title)?.trim() || (href ? domainOf(href) : "Untitled page");
            const age = str(r.page_age);
            return (
              <li key={i} className="min-w-0">
                {href ? (
                  <a
                    href={href}
                    {...EXTERNAL}
                    className="group/link flex min-w-0 flex-col rounded px-1 py-0.5 hover:bg-zinc-100 sm:flex-row sm:items-baseline sm:gap-2 dark:hover:bg-zinc-800"
                  >
                    <span className="min-w-0 truncate text-sm text-sky-800 group-hover/link:underline dark:text-sky-300">{title}</span>
                    <span className="shrink-0 truncate text-xs text-zinc-600 dark:text-zinc-400">
                      {domainOf(href)}
                      {age ? ` · ${age}` : ""}
                    </span>
                  </a>
                ) : (
                  <span className="block truncate px-1 py-0.5 text-sm">{title}</span>
                )}
              </li>
            );
          })}
        </ul>
      )}
    </Disclosure>
  );
}

function WebFetch({ use, result, live }: { use: Loose | null; result: Loose | null; live: boolean }) {
  const content = asRecord(result?.content);
  const url = str(content?.url) ?? str(asRecord(use?.input)?.url);
  const href = safeHref(url);
  const doc = asRecord(content?.content);
  const title = str(doc?.title);
  const error = resultError(result);
  const pending = !result && live;
  const where = href ? domainOf(href) : (url ?? "a page");
  return (
    <Disclosure testId="web-fetch" icon={<LinkIcon className={ICON} />} label={`${pending ? "Fetching" : "Fetched"} ${where}${pending ? "…" : ""}`} meta={error ? "failed" : null}>
      {error && <ErrorLine text={error} />}
      {href ? (
        <a href={href} {...EXTERNAL} className="block break-all py-1 text-sm text-sky-800 hover:underline dark:text-sky-300">
          {title ?? href}
        </a>
      ) : (
        url && <p className="break-all py-1 text-sm">{url}</p>
      )}
      {title && href && <p className="break-all text-xs text-zinc-600 dark:text-zinc-400">{href}</p>}
    </Disclosure>
  );
}

function Output({ content }: { content: Loose }) {
  const stdout = str(content.stdout) ?? "";
  const stderr = str(content.stderr) ?? "";
  return (
    <>
      {stdout !== "" && (
        <div>
          <p aria-hidden className="mb-1 text-[11px] font-medium text-zinc-600 dark:text-zinc-400">Output</p>
          <Pre testId="code-stdout" label="Output" text={stdout.replace(/\n$/, "")} />
        </div>
      )}
      {stderr !== "" && (
        <div>
          <p aria-hidden className="mb-1 text-[11px] font-medium text-red-800 dark:text-red-300">Errors</p>
          <Pre testId="code-stderr" label="Errors" tone="error" text={stderr.replace(/\n$/, "")} />
        </div>
      )}
      {stdout === "" && stderr === "" && <p className="text-xs italic text-zinc-600 dark:text-zinc-400">No output.</p>}
    </>
  );
}

function CodeExecution({ use, result, live, bash }: { use: Loose | null; result: Loose | null; live: boolean; bash: boolean }) {
  const input = asRecord(use?.input);
  const code = str(input?.code) ?? str(input?.command);
  const content = asRecord(result?.content);
  const code_ = content ? num(content.return_code) : null;
  const error = resultError(result);
  const pending = !result && live;
  const label = pending ? (bash ? "Running a command…" : "Running code…") : bash ? "Ran a command" : "Ran code";
  const meta = error ? "failed" : code_ !== null && code_ !== 0 ? `exit ${code_}` : null;
  return (
    <Disclosure testId="code-execution" icon={<Terminal className={ICON} />} label={label} meta={meta}>
      <div className="space-y-2 py-1">
        {code && (
          <CodeBlock language={bash || str(input?.command) ? "bash" : "python"} code={code}>
            <code>{code}</code>
          </CodeBlock>
        )}
        {error && <ErrorLine text={error} />}
        {content && !error && <Output content={content} />}
      </div>
    </Disclosure>
  );
}

function TextEditor({ use, result, live }: { use: Loose | null; result: Loose | null; live: boolean }) {
  const input = asRecord(use?.input) ?? {};
  const command = str(input.command) ?? "edit";
  const path = str(input.path) ?? "a file";
  const verb = { view: "Viewed", create: "Created", str_replace: "Edited" }[command] ?? "Edited";
  const content = asRecord(result?.content);
  const error = resultError(result);
  const body = str(input.file_text) ?? str(content?.content);
  return (
    <Disclosure testId="text-editor" icon={<SquarePen className={ICON} />} label={`${!result && live ? "Editing" : verb} ${path}`} meta={error ? "failed" : null}>
      <div className="space-y-2 py-1">
        {error && <ErrorLine text={error} />}
        {str(input.old_str) !== null && <Pre label="Replaced" tone="error" text={str(input.old_str) ?? ""} />}
        {str(input.new_str) !== null && <Pre label="With" text={str(input.new_str) ?? ""} />}
        {body !== null && <Pre label={path} text={body} />}
      </div>
    </Disclosure>
  );
}

function ToolSearch({ use, result }: { use: Loose | null; result: Loose | null }) {
  const query = str(asRecord(use?.input)?.query) ?? str(asRecord(use?.input)?.pattern);
  const refs = list(asRecord(result?.content)?.tool_references).map((r) => str(asRecord(r)?.tool_name)).filter((n): n is string => n !== null);
  const error = resultError(result);
  return (
    <Disclosure testId="tool-search" icon={<Search className={ICON} />} label={`Searched tools${query ? `: ${query}` : ""}`} meta={error ? "failed" : result ? `${refs.length} found` : null}>
      {error && <ErrorLine text={error} />}
      {refs.length > 0 && <p className="py-1 font-mono text-xs">{refs.join(", ")}</p>}
    </Disclosure>
  );
}

function GenericTool({ name, use, result, testId }: { name: string; use: Loose | null; result: Loose | null; testId: string }) {
  const error = resultError(result);
  return (
    <Disclosure testId={testId} icon={<Wrench className={ICON} />} label={`Used ${name}`} meta={error ? "failed" : null}>
      <div className="space-y-2 py-1">
        {error && <ErrorLine text={error} />}
        {use?.input !== undefined && <Pre label="Input" text={prettyJson(use.input)} />}
        {result && <Pre label="Result" text={prettyJson(result.content)} />}
      </div>
    </Disclosure>
  );
}

const BY_RESULT: Record<string, string> = {
  web_search_tool_result: "web_search",
  web_fetch_tool_result: "web_fetch",
  code_execution_tool_result: "code_execution",
  bash_code_execution_tool_result: "bash_code_execution",
  text_editor_code_execution_tool_result: "text_editor_code_execution",
  tool_search_tool_result: "tool_search",
};

/** A server tool call and its result (either may be missing: a result's call on an earlier page, a call still running). */
export function ServerToolBlock({ use, result, live = false }: { use: Loose | null; result: Loose | null; live?: boolean }) {
  const name = str(use?.name) ?? BY_RESULT[str(result?.type) ?? ""] ?? "a tool";
  if (name === "web_search") return <WebSearch use={use} result={result} live={live} />;
  if (name === "web_fetch") return <WebFetch use={use} result={result} live={live} />;
  if (name === "code_execution" || name === "bash_code_execution") return <CodeExecution use={use} result={result} live={live} bash={name === "bash_code_execution"} />;
  if (name === "text_editor_code_execution") return <TextEditor use={use} result={result} live={live} />;
  if (name.startsWith("tool_search")) return <ToolSearch use={use} result={result} />;
  return <GenericTool name={name} use={use} result={result} testId="server-tool" />;
}

/** What an MCP tool returned, as text where it is text. */
function mcpResultText(result: Loose): string {
  const c = result.content;
  if (typeof c === "string") return c;
  const parts = list(c).map(asRecord);
  if (parts.length > 0 && parts.every((p) => p !== null && str(p.type) === "text")) return parts.map((p) => str(p?.text) ?? "").join("\n");
  return prettyJson(c);
}

/** A tool of an MCP server the API called for Claude: "server · tool", open to its input and result. */
export function McpToolBlock({ use, result, live = false }: { use: Loose | null; result: Loose | null; live?: boolean }) {
  const server = str(use?.server_name) ?? "MCP server";
  const tool = str(use?.name) ?? "a tool";
  const failed = result?.is_error === true;
  return (
    <Disclosure
      testId="mcp-tool"
      icon={<Plug className={ICON} />}
      label={`${!result && live ? "Using" : "Used"} ${tool} on ${server}`}
      meta={failed ? "failed" : null}
    >
      <div className="space-y-2 py-1">
        {use?.input !== undefined && <Pre label="Input" text={prettyJson(use.input)} />}
        {result && <Pre label={failed ? "Error" : "Result"} tone={failed ? "error" : "plain"} text={mcpResultText(result)} />}
      </div>
    </Disclosure>
  );
}
