// Extractors for references: file paths, configuration, URLs, code blocks and identifiers,
// found as tokens. Precision matters as much as recall: ordinary prose ("Node.js", "and/or",
// "res.json()") must not turn into items.
import { type Found, wordCount } from "./extract-statements";
import { blankOut, linesOf, normalizeWs, type CodeBlock } from "./prose";

/** Code blocks up to this size are kept whole; longer ones contribute their identifiers. */
export const MAX_BLOCK_CHARS = 1_500;

// ---------------------------------------------------------------- url

const URL_RE = /https?:\/\/[^\s<>`'"\[\](){}|\\^]+/g;

export function urls(text: string): Found[] {
  const out: Found[] = [];
  for (const m of text.matchAll(URL_RE)) {
    const url = m[0].replace(/[.,;:!?*]+$/, "");
    if (/^https?:\/\/[\w-]+(?:\.[\w-]+)*(?::\d+)?/.test(url)) out.push({ kind: "url", text: url, index: m.index });
  }
  return out;
}

export function withoutUrls(text: string): string {
  return blankOut(text, URL_RE);
}

// ---------------------------------------------------------------- file_path

// A token of path characters holding a slash or a dot. Anchored at the token's start so a
// plain word costs one pass, not one attempt per character.
const PATH_TOKEN_RE = /(?<![\w@.\-\[\]~\/+])[\w@\-\[\]~+]*[.\/][\w@.\-\[\]~\/+]*/g;
// Dotless well-known files are few enough to name.
const DOTLESS_FILE_RE = /(?<![\w.\/-])(?:Dockerfile|Makefile|Procfile|Gemfile|LICENSE)(?![\w.\/-])/g;
const SLASH_PATH_RE = /^(?:~|\.{1,2})?\/?(?:[\w@.\-\[\]+]+\/)+[\w@.\-\[\]+]*\.([A-Za-z][A-Za-z0-9]{0,9})$/;
const ONE_LETTER_EXTS = new Set(["c", "h", "r", "m"]);
const WELL_KNOWN_RE =
  /^(?:package(?:-lock)?\.json|tsconfig(?:\.[\w-]+)?\.json|Dockerfile(?:\.[\w-]+)?|Makefile|Procfile|Gemfile(?:\.lock)?|docker-compose(?:\.[\w-]+)?\.ya?ml|\.env(?:\.[\w-]+)?|\.gitignore|\.dockerignore|\.npmrc|\.nvmrc|\.prettierrc(?:\.\w+)?|\.eslintrc(?:\.\w+)?|eslint\.config\.[cm]?[jt]s|(?:next|vite|vitest|jest|tailwind|postcss|webpack|rollup|babel|playwright|drizzle)\.config\.[cm]?[jt]s|Cargo\.(?:toml|lock)|go\.(?:mod|sum)|pyproject\.toml|requirements(?:-\w+)?\.txt|setup\.py|yarn\.lock|pnpm-lock\.yaml|pnpm-workspace\.yaml|README\.md|CHANGELOG\.md|LICENSE(?:\.md)?|nginx\.conf)$/;
const BARE_CODE_RE =
  /^[a-z0-9_][\w-]*(?:\.[\w-]+)*\.(?:ts|tsx|js|jsx|mjs|cjs|py|go|rs|rb|java|kt|swift|c|h|cpp|hpp|cs|php|sql|sh|css|scss|html|vue|svelte|astro|json|ya?ml|toml|mdx?|prisma|graphql|proto|tf|lock|ini|conf|cfg|txt|csv|ipynb|env)$/;
const BARE_COMPONENT_RE = /^[A-Z][\w-]*(?:\.[\w-]+)*\.(?:tsx|jsx|vue|svelte|astro|java|kt|swift|cs|md|txt)$/;
// Framework and library names look like files but are products.
const NOT_A_FILE_RE = /^(?:node|next|vue|nuxt|react|express|three|d3|chart|ember|backbone|angular|moment|socket|p5|alpine|solid|deno|bun|nest|svelte)\.js$/i;

function trimPathToken(token: string): string {
  let t = token.replace(/[.\-]+$/, "");
  // A closing bracket belongs to the path only if the path opened it ([id] segments).
  while (t.endsWith("]") && (t.match(/\[/g)?.length ?? 0) < (t.match(/]/g)?.length ?? 0)) t = t.slice(0, -1).replace(/[.\-]+$/, "");
  return t;
}

function isFilePath(t: string): boolean {
  if (t.includes("/")) {
    if (t.includes("//")) return false;
    const m = SLASH_PATH_RE.exec(t);
    return !!m && (m[1].length >= 2 || ONE_LETTER_EXTS.has(m[1]));
  }
  if (NOT_A_FILE_RE.test(t)) return false;
  return WELL_KNOWN_RE.test(t) || BARE_CODE_RE.test(t) || BARE_COMPONENT_RE.test(t);
}

/** Paths with a directory and an extension, well-known project files, and bare code file names. */
export function filePaths(textWithoutUrls: string): Found[] {
  const out: Found[] = [];
  for (const m of textWithoutUrls.matchAll(PATH_TOKEN_RE)) {
    const t = trimPathToken(m[0]);
    const next = textWithoutUrls[m.index + m[0].length] ?? "";
    // "res.json(" is a call, and "user@host.sh" an address, not files.
    if (next === "(" || (t.startsWith("@") && !t.includes("/"))) continue;
    if (t.length >= 4 && isFilePath(t)) out.push({ kind: "file_path", text: t, index: m.index });
  }
  for (const m of textWithoutUrls.matchAll(DOTLESS_FILE_RE)) out.push({ kind: "file_path", text: m[0], index: m.index });
  return out;
}

// Files attached to a message, as its plain text names them (lib/context/text.ts): a summary
// must name every file its turns used, so Claude can still open_file it.
const ATTACHED_RE = /^\[(?:document|image|file): (.+?)(?:, \d+ pages?)?\]$/gm;

export function attachedFiles(text: string): Found[] {
  return [...text.matchAll(ATTACHED_RE)].map((m) => ({ kind: "file_path" as const, text: m[1], index: m.index + m[0].indexOf(m[1]) }));
}

// ---------------------------------------------------------------- config

// Judged on the key's last segment, so GITHUB_TOKEN and api_key are secrets but max_tokens
// and token_count are not.
const SECRET_SEGMENT_RE = /(?:^|[_.\-])(?:secret|token|password|passwd|pwd|key|apikey|credentials?|dsn)$/i;
// postgres://user:password@host carries a credential whatever the key is called.
const URL_CREDENTIAL_RE = /:\/\/[^\/\s:@]+:[^@\s]+@/;
const isSecret = (key: string, value: string) => SECRET_SEGMENT_RE.test(key) || URL_CREDENTIAL_RE.test(value);
const ENV_ASSIGN_RE = /(?<![\w$.\-])([A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+)=("[^"\n]*"|'[^'\n]*'|[^\s`'",;)]*)/g;
const ENV_MENTION_RE = /(?<![\w$.\-])([A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+)(?![\w\-])/g;
const ENV_ACCESS_RE =
  /(?:process\.env\.|import\.meta\.env\.|Deno\.env\.get\(\s*["']|os\.environ\[\s*["']|os\.(?:getenv|environ\.get)\(\s*["']|\$\{?)([A-Z][A-Z0-9_]*)\b/g;
const SETTING_LINE_RE = /^(?:[-*]\s+)?(?:export\s+)?(["']?)([A-Za-z][\w.\-]*)\1\s*([:=])\s*(.+?)\s*,?$/;
const PLAIN_VALUE_RE = /^(?:-?\d+(?:\.\d+)?(?:[a-zA-Z%]{1,3})?|true|false|null|yes|no|on|off|"[^"]*"|'[^']*')$/;
const TOKEN_VALUE_RE = /^[^\s"'`]{1,80}$/;
const INLINE_SETTING_RE = /(?<![\w\-?&=\/.])(--?[a-z][\w\-]*|[a-z][\w.\-]*[_.\-][\w.\-]*)=([^\s,;`'")]+)/g;
// A pin may end a sentence ("upgraded to next@15.5.28."): a dot counts only before a digit.
const VERSION_PIN_RE = /(?<![\w@\/.\-])((?:@[\w.\-]+\/)?[A-Za-z][\w.\-]*)@(?:[\^~]|>=?)?\d+(?:\.\d+){0,3}(?:-[\w]+(?:\.[\w]+)*)?(?!\w|\.\d)/g;
const PY_PIN_RE = /(?<![\w.\-])[A-Za-z][\w.\-]*(?:==|>=|~=)\d+(?:\.\d+){0,3}(?!\w|\.\d)/g;

function envItem(key: string, value: string | null): string {
  // Secrets are kept by reference: the name survives the summary, the credential does not.
  if (value === null || isSecret(key, value)) return key;
  return `${key}=${value}`;
}

function settingLine(line: string): string | null {
  const m = SETTING_LINE_RE.exec(line.trim());
  if (!m) return null;
  const [, , key, , value] = m;
  if (/^https?$/i.test(key) || /^[A-Z]/.test(key) && !/^[A-Z0-9_]+$/.test(key)) return null;
  const compound = /[_.\-]/.test(key);
  if (!(compound ? PLAIN_VALUE_RE.test(value) || TOKEN_VALUE_RE.test(value) : PLAIN_VALUE_RE.test(value))) return null;
  if (key.length < 3) return null;
  // The item is the source text from the key (with its quote) to the value, trailing comma
  // dropped, so a summary quoting the line or its code block contains it verbatim.
  const start = line.indexOf(m[1] + key);
  const body = line.slice(start).trim().replace(/,$/, "").trim();
  return isSecret(key, value) ? key : body;
}

/** Environment variables, settings lines, key=value flags and version pins. */
export function configs(text: string): Found[] {
  const out: Found[] = [];
  const push = (text: string, index: number) => out.push({ kind: "config", text, index });
  const screaming = /[A-Z0-9]_[A-Z0-9]/.test(text);
  for (const m of screaming && text.includes("=") ? text.matchAll(ENV_ASSIGN_RE) : []) {
    // An unquoted value at the end of a sentence does not own the full stop.
    const value = /^["']/.test(m[2]) ? m[2] : m[2].replace(/[.:!?]+$/, "");
    push(envItem(m[1], value), m.index);
  }
  for (const m of screaming ? text.matchAll(ENV_MENTION_RE) : []) if (!m[1].startsWith("ERR_")) push(m[1], m.index);
  for (const m of /env|\$/.test(text) ? text.matchAll(ENV_ACCESS_RE) : []) if (m[1].length >= 2) push(m[1], m.index);
  for (const l of linesOf(text)) {
    if (!l.text.includes(":") && !l.text.includes("=")) continue;
    const item = settingLine(l.text);
    if (item) push(normalizeWs(item), l.index);
  }
  if (!text.includes("=") && !text.includes("@")) return out;
  const noUrls = withoutUrls(text);
  // The pin and flag patterns backtrack inside every word; only lines with their operator can match.
  for (const l of linesOf(noUrls)) {
    if (l.text.includes("=")) {
      for (const m of l.text.matchAll(INLINE_SETTING_RE)) {
        const value = m[2].replace(/[.:!?]+$/, "");
        if (value !== "") push(isSecret(m[1], value) ? m[1] : `${m[1]}=${value}`, l.index + m.index);
      }
      for (const m of l.text.matchAll(PY_PIN_RE)) push(m[0], l.index + m.index);
    }
    if (l.text.includes("@")) for (const m of l.text.matchAll(VERSION_PIN_RE)) push(m[0], l.index + m.index);
  }
  return out;
}

// ---------------------------------------------------------------- code_block & identifier

const KEYWORDS = new Set([
  "null", "undefined", "true", "false", "this", "self", "None", "True", "False", "await", "async",
  "return", "const", "let", "var", "new", "void", "yes", "no",
]);
const NOT_IDENTIFIERS = new Set(["iPhone", "iPad", "iPod", "iOS", "macOS", "iCloud", "iMac", "eBay", "iTunes", "watchOS", "tvOS", "visionOS", "youTube"]);
const BACKTICK_RE = /`([^`\n]{2,80})`/g;
const CAMEL_RE = /(?<![\w$\/\-@])([a-z][a-z0-9]*(?:[A-Z][a-z0-9]*)+)(?![\w$\/\-])/g;
const SNAKE_RE = /(?<![\w$\/\-@])([a-z][a-z0-9]*(?:_[a-z0-9]+)+)(?![\w$\/\-])/g;
const PASCAL_CALL_RE = /(?<![\w$])([A-Z][a-z0-9]+(?:[A-Z][a-z0-9]*)+)\(/g;
const DECLARATION_RE = /\b(?:function|class|interface|type|enum|struct|def|fn|func|const|let|var)\s+([A-Za-z_$][\w$]*)/g;

/** Fenced blocks up to MAX_BLOCK_CHARS, whole and as written. */
export function codeBlocks(blocks: readonly CodeBlock[]): Found[] {
  return blocks.filter((b) => b.text.length <= MAX_BLOCK_CHARS).map((b) => ({ kind: "code_block", text: b.text, index: b.index }));
}

function namesIn(text: string, base: number, withBackticks: boolean): Found[] {
  const out: Found[] = [];
  const push = (name: string, index: number) => {
    if (name.length >= 3 && !KEYWORDS.has(name) && !NOT_IDENTIFIERS.has(name)) out.push({ kind: "identifier", text: name, index: base + index });
  };
  if (withBackticks && text.includes("`")) {
    for (const m of text.matchAll(BACKTICK_RE)) {
      // "createSession(" or "createSession()" names the function; the summary may write either.
      const inner = m[1].trim().replace(/\(\)?$/, "");
      // Backticks mark code, but a whole sentence or a bare number in them is not an identifier.
      if (wordCount(inner) <= 6 && !/^[\d.,\s%]+$/.test(inner)) push(inner, m.index + 1);
    }
  }
  // Cheap tests first: most prose has no camelCase, snake_case or PascalCase call at all.
  if (/[a-z0-9][A-Z]/.test(text)) {
    for (const m of text.matchAll(CAMEL_RE)) push(m[1], m.index);
    for (const m of text.includes("(") ? text.matchAll(PASCAL_CALL_RE) : []) push(m[1], m.index);
  }
  if (/[a-z0-9]_[a-z0-9]/.test(text)) for (const m of text.matchAll(SNAKE_RE)) push(m[1], m.index);
  return out;
}

/**
 * Names from prose (backticked code, camelCase, snake_case, PascalCase calls) and, for blocks
 * too long to keep whole, the names they declare and call. Names inside kept blocks are not
 * taken: identifiers rank below code blocks, so they would only repeat the block.
 */
export function identifiers(prose: string, blocks: readonly CodeBlock[]): Found[] {
  const out = namesIn(prose, 0, true);
  for (const b of blocks) {
    if (b.text.length <= MAX_BLOCK_CHARS) continue;
    for (const m of b.text.matchAll(DECLARATION_RE)) {
      if (m[1].length >= 3 && !KEYWORDS.has(m[1])) out.push({ kind: "identifier", text: m[1], index: b.index + m.index });
    }
    out.push(...namesIn(b.text, b.index, false));
  }
  return out;
}

