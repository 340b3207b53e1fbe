import { IMAGE_TYPES, type FileKind } from "./files";

// Which files can be attached, told by name and media type together: browsers give no type (or
// a guessed one) for most text and code files, so the extension speaks first for text, and an
// image or a PDF is known by either. Kept beside the contract so the composer refuses exactly
// what the upload route would, and says so before a byte is sent.

const IMAGE_EXTENSIONS: Readonly<Record<string, (typeof IMAGE_TYPES)[number]>> = {
  png: "image/png",
  jpg: "image/jpeg",
  jpeg: "image/jpeg",
  gif: "image/gif",
  webp: "image/webp",
};

/** Plain text, data and source code: read as text, whatever type the browser guessed. */
export const TEXT_EXTENSIONS: ReadonlySet<string> = new Set([
  // prose and data
  "txt", "text", "md", "markdown", "rst", "adoc", "tex", "csv", "tsv", "json", "jsonl", "ndjson", "log", "xml",
  "yaml", "yml", "toml", "ini", "cfg", "conf", "properties", "srt", "vtt", "diff", "patch", "html", "htm", "css", "scss", "less",
  // source code
  "js", "jsx", "mjs", "cjs", "ts", "tsx", "mts", "cts", "py", "pyi", "ipynb", "rb", "go", "rs", "java", "kt", "kts", "scala",
  "swift", "m", "mm", "c", "h", "cc", "cpp", "cxx", "hpp", "hh", "cs", "fs", "php", "pl", "pm", "lua", "r", "jl", "dart",
  "ex", "exs", "erl", "hs", "clj", "elm", "vue", "svelte", "sh", "bash", "zsh", "fish", "ps1", "bat", "sql", "graphql", "gql",
  "proto", "gradle", "cmake", "tf", "hcl", "nix", "zig", "v", "sv", "vhd", "asm", "s",
]);

/** Files whose name is their kind (no extension). */
const TEXT_NAMES: ReadonlySet<string> = new Set(["dockerfile", "makefile", "readme", "license", "gemfile", "procfile", "rakefile", "justfile"]);

/** Types of text sent with an application/ prefix. */
const TEXT_MEDIA_TYPES: ReadonlySet<string> = new Set([
  "application/json",
  "application/ld+json",
  "application/x-ndjson",
  "application/xml",
  "application/yaml",
  "application/x-yaml",
  "application/toml",
  "application/javascript",
  "application/x-javascript",
  "application/typescript",
  "application/x-sh",
  "application/x-python",
  "application/sql",
  "application/x-httpd-php",
  "application/x-tex",
]);

/** The extension of a file name, lower case, without the dot ("" when there is none). */
export function fileExtension(name: string): string {
  const base = name.slice(name.lastIndexOf("/") + 1);
  const dot = base.lastIndexOf(".");
  return dot > 0 ? base.slice(dot + 1).toLowerCase() : "";
}

/**
 * The kind a file would be stored as, or null when it cannot be attached. `mediaType` is what the
 * browser says (often "" or application/octet-stream for text). An image type that is not one of
 * Claude's four (HEIC, BMP, TIFF, SVG) is refused whatever the name; the server reads the bytes.
 */
export function fileKindOf(name: string, mediaType: string): FileKind | null {
  const type = mediaType.split(";")[0].trim().toLowerCase();
  const ext = fileExtension(name);
  if ((IMAGE_TYPES as readonly string[]).includes(type)) return "image";
  if (type === "application/pdf") return "pdf";
  if (type.startsWith("image/")) return null;
  if (ext in IMAGE_EXTENSIONS) return type === "" || type === "application/octet-stream" ? "image" : null;
  if (ext === "pdf") return type === "" || type === "application/octet-stream" ? "pdf" : null;
  if (TEXT_EXTENSIONS.has(ext)) return "text";
  if (ext === "" && TEXT_NAMES.has(name.slice(name.lastIndexOf("/") + 1).toLowerCase())) return "text";
  if (type.startsWith("text/") || TEXT_MEDIA_TYPES.has(type)) return "text";
  return null;
}

/** The `accept` attribute of a file input: every type and extension above. */
export const FILE_INPUT_ACCEPT = [
  ...IMAGE_TYPES,
  ...Object.keys(IMAGE_EXTENSIONS).map((e) => `.${e}`),
  "application/pdf",
  ".pdf",
  "text/*",
  ...TEXT_MEDIA_TYPES,
  ...[...TEXT_EXTENSIONS].map((e) => `.${e}`),
].join(",");
