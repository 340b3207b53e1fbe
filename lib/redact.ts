// Secrets pasted into a conversation must not spread into what is derived from it (summaries,
// preserved details, memories, titles, previews, logs). The messages themselves are never
// changed: this runs on copies, at the points where derived text is produced. Pure, no I/O.
//
// Three properties matter more than recall of exotic formats:
// - idempotent: redacting redacted text changes nothing, so must-keep items drawn from a
//   redacted transcript are found verbatim in a redacted summary;
// - placeholders are not secrets (`your-key-here`, `<token>`, `${VAR}`, `process.env.X`, `***`);
// - linear: it runs on whole transcripts, so every pattern is anchored on a literal or guarded.

/** What a redacted secret becomes: `[redacted: ANTHROPIC_API_KEY]`. */
export function placeholder(kind: string): string {
  return `[redacted: ${kind}]`;
}

const PLACEHOLDER_MARK = "[redacted:";
const PLACEHOLDER_RE = /\[redacted: [^\]\n]{1,100}\]/g;

export interface Redaction {
  text: string;
  /** Kinds redacted, each once. */
  kinds: string[];
}

// ------------------------------------------------------------------------ placeholders

// A separated word, so a random key that happens to contain "here" is not mistaken for one.
const PLACEHOLDER_WORD_RE = /(?:^|[^a-z0-9])(?:your|my|insert|enter|replace|example|sample|dummy|fake|placeholder|redacted|changeme|here|xxx+)(?:[^a-z0-9]|$)/i;
const FILLER_RE = /^[*xX.…•#_\-\s0]+$/;
const REFERENCE_RE = /\$\{|\{\{|\{%|process\.env|import\.meta\.env|os\.environ|getenv|Deno\.env|secrets\.|env\(|ENV\[|^\$[({A-Za-z_]|^%\w+%$|^<|>$/;

/** Text standing for a secret rather than being one. */
function isPlaceholder(value: string): boolean {
  return value.includes(PLACEHOLDER_MARK) || FILLER_RE.test(value) || REFERENCE_RE.test(value) || PLACEHOLDER_WORD_RE.test(value);
}

function distinctChars(s: string, atLeast: number): boolean {
  const seen = new Set<string>();
  for (const c of s) {
    seen.add(c);
    if (seen.size >= atLeast) return true;
  }
  return false;
}

/** A token body that could be a real credential: varied characters, not a placeholder. */
function randomEnough(body: string): boolean {
  return distinctChars(body, 6) && !isPlaceholder(body);
}

// ------------------------------------------------------------------------ PEM private keys

// Whole blocks, and a block cut short (a preview, a truncated tool input): its base64 lines.
const PEM_RE =
  /-----BEGIN ((?:[A-Z0-9]+ )*)PRIVATE KEY( BLOCK)?-----(?:[\s\S]*?-----END \1PRIVATE KEY\2-----|(?:(?:\s|\\n)+(?:[A-Za-z0-9+\/]{16,}={0,2}|[A-Za-z][\w-]*: [^\n\\]*))*)/g;

// ------------------------------------------------------------------------ connection URLs

// scheme://user:password@host: only the password goes. Anchored on "://" (scanning from
// every word for a scheme costs ten times more). The user part cannot hold a slash, so
// "https://host:8080/a@b" is ruled out below by its all-digit "password" (a port).
const URL_CREDENTIAL_RE = /:\/\/([^\s:\/?#@"'<>`]*):([^\s@"'<>`]+)@/g;
const PORT_THEN_PATH_RE = /^\d{1,5}(?:[\/?#]|$)/;
const URL_PLACEHOLDER_RE = /^(?:password|pass|passwd|pwd|secret|\[[^\]]*\])$/i;

// ------------------------------------------------------------------------ known token formats

// One pass for every prefix-anchored format; the replacer tells them apart (and rejects a
// match glued to a preceding word, "task-…" or "risk-…" read as "sk-…": a leading lookbehind
// would cost the regex its fast literal scan).
const TOKEN_RE = new RegExp(
  String.raw`(?:` +
    [
      String.raw`sk-ant-[\w\-]{20,}`,
      String.raw`sk-[\w\-]{20,}`,
      String.raw`(?:sk|rk)_(?:live|test)_[A-Za-z0-9]{16,}`,
      String.raw`gh[pousr]_[A-Za-z0-9]{30,}`,
      String.raw`github_pat_\w{30,}`,
      String.raw`(?:AKIA|ASIA)[A-Z0-9]{16}(?![A-Za-z0-9])`,
      String.raw`xox[abposr]-[A-Za-z0-9\-]{10,}`,
      String.raw`xapp-[A-Za-z0-9\-]{10,}`,
      String.raw`AIza[\w\-]{35}`,
      String.raw`tk_(?:live|test)_[\w\-]{16,}`,
      // Supabase's secret keys (the service role's successor; the legacy one is a JWT, below).
      String.raw`sb_secret_[\w\-]{20,}`,
      // A JWT: header.payload.signature, or header.payload when a cut removed the signature.
      String.raw`eyJ[\w\-]{10,}\.[\w\-]{10,}(?:\.[\w\-]*)?`,
    ].join("|") +
    ")",
  "g",
);

/** The kind of a token TOKEN_RE matched, or null when it is a placeholder or ordinary text. */
function tokenKind(token: string): string | null {
  if (token.startsWith("sk-ant-")) return randomEnough(token.slice(7)) ? "ANTHROPIC_API_KEY" : null;
  if (token.startsWith("sk-")) {
    // Bare "sk-" also starts kebab-case names (CSS classes, packages): a key has a long
    // random run with letters and digits.
    const body = token.slice(3);
    const longestRun = Math.max(...body.split(/[_\-]/).map((s) => s.length));
    return longestRun >= 16 && /\d/.test(body) && /[A-Za-z]/.test(body) && randomEnough(body) ? "API_KEY" : null;
  }
  if (/^[sr]k_/.test(token)) return randomEnough(token.slice(8)) ? "STRIPE_SECRET_KEY" : null;
  if (token.startsWith("gh") || token.startsWith("github_pat_")) return randomEnough(token.slice(4)) ? "GITHUB_TOKEN" : null;
  if (token.startsWith("AKIA") || token.startsWith("ASIA")) {
    const body = token.slice(4);
    return distinctChars(body, 6) && !body.endsWith("EXAMPLE") ? "AWS_ACCESS_KEY_ID" : null;
  }
  if (token.startsWith("xox") || token.startsWith("xapp-")) return /\d/.test(token) && randomEnough(token.slice(5)) ? "SLACK_TOKEN" : null;
  if (token.startsWith("AIza")) return randomEnough(token.slice(4)) ? "GOOGLE_API_KEY" : null;
  if (token.startsWith("tk_")) return randomEnough(token.slice(8)) ? "THREADKEEPER_API_KEY" : null;
  if (token.startsWith("sb_secret_")) return randomEnough(token.slice(10)) ? "SUPABASE_SECRET_KEY" : null;
  return randomEnough(token) ? "JWT" : null;
}

// ------------------------------------------------------------------------ Authorization headers

const AUTH_SCHEME_RE = /\b(Bearer|Basic)([ \t]+)([A-Za-z0-9\-._~+\/]{16,}=*)(?![\w\-.~+\/=])/g;

// ------------------------------------------------------------------------ named variables

// NAME=value, NAME: value, "name": "value", name => 'value', --name=value, with the name
// holding key/secret/token/password (judged precisely by secretName). An optional type
// annotation sits between a name and "=" in typed code (`password: string = "…"`).
// Found in two steps, because a regex trying a name at every word is three times slower
// than the whole rest of the pass: VAR_HINT_RE finds a keyword followed by a separator,
// then VAR_AT_RE (sticky) parses the assignment from the start of the name around it.
const VAR_HINT_RE = /(?:key|secret|token|passw(?:or)?d)[\w.\-]*\\?["']?[ \t]*[:=]/gi;
const VAR_AT_RE = new RegExp(
  String.raw`(\\?["']?)` + // 1: the name's opening quote (JSON, or JSON inside a JSON string)
    String.raw`([\w.\-]*?(?:key|secret|token|passw(?:or)?d)[\w.\-]*)` + // 2: name
    String.raw`\1` +
    String.raw`([ \t]*(?:\??:[ \t]*(?:string|str|String|SecretStr|bytes|&str|Optional\[str\])[ \t]*=(?![=>~])|:=|=>|=(?![=~])|:(?![:\/]))[ \t]*)` + // 3: separator
    String.raw`("(?:[^"\\\n]|\\.)*"|\\"(?:[^"\\\n]|\\[^"\n])*\\"|'[^'\n]*'|` + "`[^`\\n]*`" + String.raw`|[^\s"'` + "`" + String.raw`,;&)}\]>]+)`, // 4: value
  "iy",
);
const NAME_CHAR_RE = /[\w.\-]/;

// Names ending in _KEY / _TOKEN that are not credentials: database and cache keys, pagination
// cursors, a tokenizer's special tokens, public keys.
const NOT_SECRET_KEY_PREFIXES = new Set([
  "primary", "foreign", "sort", "partition", "hash", "range", "cache", "storage", "idempotency", "public", "publishable",
  "unique", "lookup", "dedup", "dedupe", "group", "shard", "row", "query", "object", "translation", "i18n", "composite",
  "index", "map", "dict", "react", "next", "prev", "previous", "sequence", "foreign_key", "natural", "surrogate", "local_storage",
]);
const NOT_SECRET_TOKEN_PREFIXES = new Set([
  "next", "page", "continuation", "cancellation", "cancel", "sync", "pagination", "start", "end", "eos", "bos", "pad", "unk",
  "sep", "cls", "mask", "max", "min", "num", "input", "output", "special", "stop", "prefix", "suffix",
]);
// camelCase and run-together names that are credentials (apiKey, accessToken, clientSecret…).
const COMPOUND_NAME_RE =
  /(?:^|[_.\-])(?:api|secret|private|access|client|app|auth|master|encryption|signing|service|admin|webhook|jwt|session|refresh|id|bearer|bot|personal|oauth|consumer|shared|license|account)[_.\-]?(?:key|secret|token)$|(?:^|[_.\-])(?:secret|api_?key|apikey)$/;
// Settings about passwords rather than passwords.
const PASSWORD_SETTING_RE =
  /passw(?:or)?d[_.\-]?(?:min|max|length|len|policy|reset|rounds|strength|expiry|expires|expiration|field|label|placeholder|hint|url|prompt|required|enabled|rules|regex|pattern|changed|updated|at|input|auth|login|grant|file|path)(?:[_.\-]\w+)*$/;

/** Whether a variable of this name holds a credential. */
function secretName(rawName: string): { password: boolean } | null {
  const name = rawName.replace(/^-+/, "").replace(/([a-z0-9])([A-Z])/g, "$1_$2").toLowerCase();
  if (/passw(?:or)?d/.test(name)) return PASSWORD_SETTING_RE.test(name) ? null : { password: true };
  if (COMPOUND_NAME_RE.test(name)) return { password: false };
  const segments = name.split(/[_.\-]/);
  const last = segments.at(-1) ?? "";
  if (segments.length < 2 || !["key", "secret", "token"].includes(last)) return null;
  const before = segments.slice(0, -1).join("_");
  const prev = segments.at(-2) ?? "";
  if (last === "key" && (NOT_SECRET_KEY_PREFIXES.has(prev) || NOT_SECRET_KEY_PREFIXES.has(before))) return null;
  if (last === "token" && NOT_SECRET_TOKEN_PREFIXES.has(prev)) return null;
  return { password: false };
}

// Words that follow "NAME:" in prose and types that follow it in code: never the secret.
const NOT_A_VALUE_RE =
  /^(?:the|a|an|is|are|was|be|your|my|our|its|this|that|set|not|no|yes|none|null|nil|undefined|true|false|on|off|required|optional|needed|must|should|see|use|used|from|for|with|in|of|to|and|or|string|str|number|int|integer|float|double|bool|boolean|bytes|byte|any|unknown|object|text|varchar|char|secretstr|optional\[str\]|str\s*\|\s*none|new|env|environment|variable|default)$/i;

/** Whether the value after a credential's name is a credential (rather than code, a type or a placeholder). */
function secretValue(raw: string, v: { quoted: boolean; colon: boolean; name: string; password: boolean; restOfLine: string }): boolean {
  const value = raw.trim();
  if (value.length < 3 || isPlaceholder(value) || NOT_A_VALUE_RE.test(value)) return false;
  if (/^-?\d+(?:\.\d+)?$/.test(value)) return v.password ? value.length >= 4 && !value.includes(".") : value.length >= 8;
  if (v.quoted) return true;
  // Unquoted: code shows itself by calls, indexing and member access; a password has none
  // of "(", "[" or ".identifier".
  if (/[(\[]/.test(value) || /^[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)+$/.test(value)) return false;
  // `{ password: newPassword }`, `apiKey: apiKey`: a variable of a similar name, not a value.
  // Not so in an env file (DB_PASSWORD=MySecretPass), where a bare word is the value.
  const envStyle = !v.colon && /^[A-Z][A-Z0-9_]*$/.test(v.name);
  if (!envStyle && /^[A-Za-z_$][\w$]*$/.test(value) && !/\d/.test(value)) {
    if (/[a-z][A-Z]/.test(value) || value.toLowerCase() === v.name.replace(/^-+/, "").toLowerCase()) return false;
    // "API_KEY: taken from the vault": prose goes on after a word; YAML ends the line with the value.
    if (v.colon && /^[ \t]+[a-z]/.test(v.restOfLine)) return false;
  }
  return true;
}

// ------------------------------------------------------------------------ the pass

// Cheap guards: most text holds none of these, and skipping a regex pass beats running it.
const VAR_GUARD_RE = /key|secret|token|passw/i;

/**
 * Replaces every secret in `text` by a placeholder naming its kind and says which kinds it
 * found. Idempotent; placeholders, references and ordinary text stay as they are.
 */
export function findAndRedact(text: string): Redaction {
  const kinds: string[] = [];
  const note = (kind: string) => {
    if (!kinds.includes(kind)) kinds.push(kind);
    return placeholder(kind);
  };
  let out = text;

  if (out.includes("PRIVATE KEY")) out = out.replace(PEM_RE, () => note("PRIVATE_KEY"));

  if (out.includes("://") && out.includes("@")) {
    out = out.replace(URL_CREDENTIAL_RE, (whole: string, user: string, password: string) =>
      PORT_THEN_PATH_RE.test(password) || URL_PLACEHOLDER_RE.test(password) || isPlaceholder(password)
        ? whole
        : `://${user}:${note("PASSWORD")}@`,
    );
  }

  out = out.replace(TOKEN_RE, (token: string, offset: number, all: string) => {
    const kind = offset > 0 && /[A-Za-z0-9_\-]/.test(all[offset - 1]) ? null : tokenKind(token);
    return kind ? note(kind) : token;
  });

  if (out.includes("Bearer") || out.includes("Basic")) {
    out = out.replace(AUTH_SCHEME_RE, (whole: string, scheme: string, space: string, credential: string) =>
      /\d/.test(credential) && randomEnough(credential) ? `${scheme}${space}${note(scheme === "Bearer" ? "BEARER_TOKEN" : "BASIC_AUTH")}` : whole,
    );
  }

  if (VAR_GUARD_RE.test(out)) out = redactVariables(out, note);
  return { text: out, kinds };
}

function redactVariables(text: string, note: (kind: string) => string): string {
  let out = "";
  let done = 0;
  for (const hint of text.matchAll(VAR_HINT_RE)) {
    let start = hint.index;
    while (start > 0 && NAME_CHAR_RE.test(text[start - 1])) start--;
    let quoted = start;
    if (quoted > 0 && (text[quoted - 1] === '"' || text[quoted - 1] === "'")) quoted -= text[quoted - 2] === "\\" ? 2 : 1;
    // Inside a longer path or a $VAR, or inside what an earlier match replaced.
    if (quoted < done || (quoted > 0 && /[\/$]/.test(text[quoted - 1]))) continue;
    const parsed = assignmentAt(text, quoted) ?? (quoted !== start ? assignmentAt(text, start) : null);
    if (!parsed) continue;
    out += text.slice(done, parsed.start) + parsed.replace(note);
    done = parsed.end;
  }
  return done === 0 ? text : out + text.slice(done);
}

/** The credential assignment starting at `start`, if there is one whose value is a secret. */
function assignmentAt(text: string, start: number) {
  VAR_AT_RE.lastIndex = start;
  const m = VAR_AT_RE.exec(text);
  if (!m) return null;
  const [whole, quote, name, sep, value] = m;
  const secret = secretName(name);
  if (!secret) return null;
  const open = /^\\?["'`]/.exec(value)?.[0] ?? "";
  const inner = open ? value.slice(open.length, value.length - open.length) : value.replace(/\.+$/, "");
  const end = start + whole.length;
  const colon = sep.trim() === ":";
  if (!secretValue(inner, { quoted: open !== "", colon, name, password: secret.password, restOfLine: text.slice(end, end + 16) })) return null;
  const trailing = open ? open : value.slice(inner.length);
  return {
    start,
    end,
    replace: (note: (kind: string) => string) => `${quote}${name}${quote}${sep}${open}${note(name.replace(/^-+/, ""))}${trailing}`,
  };
}

/** `text` with every recognised secret replaced by a placeholder naming its kind. */
export function redactSecrets(text: string): string;
export function redactSecrets(text: string | null): string | null;
export function redactSecrets(text: string | null): string | null {
  return text === null ? null : findAndRedact(text).text;
}

/**
 * Strings anywhere inside arrays and plain objects redacted (preserved items, decisions, tags);
 * other values as they are. Returns a copy; the input is not changed.
 */
export function redactDeep<T>(value: T): T {
  return redactAny(value, 0) as T;
}

function redactAny(value: unknown, depth: number): unknown {
  if (typeof value === "string") return redactSecrets(value);
  if (depth > 20 || value === null || typeof value !== "object") return value;
  if (Array.isArray(value)) return value.map((v) => redactAny(v, depth + 1));
  if (Object.getPrototypeOf(value) !== Object.prototype && Object.getPrototypeOf(value) !== null) return value;
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, redactAny(v, depth + 1)]));
}

/**
 * The first `chars` characters of `text`, redacted, for previews. Redacted before it is cut
 * (a cut key would no longer match its pattern), over a margin wide enough for any key that
 * starts inside the preview, and never ending inside a placeholder.
 */
export function redactedPrefix(text: string, chars: number, margin = 4_000): string {
  const redacted = redactSecrets(text.slice(0, chars + margin));
  if (redacted.length <= chars) return redacted;
  for (const m of redacted.slice(0, chars + 120).matchAll(PLACEHOLDER_RE)) {
    if (m.index < chars && m.index + m[0].length > chars) return redacted.slice(0, m.index).trimEnd();
  }
  // Not between the halves of a surrogate pair (an emoji), which would store an invalid character.
  const end = /[\uD800-\uDBFF]/.test(redacted[chars - 1]) ? chars - 1 : chars;
  return redacted.slice(0, end);
}
