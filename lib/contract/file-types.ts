import { IMAGE_TYPES, type FileKind } from "./files";

// Which files can be attached, by name and declared type: the one list the upload route
// (lib/files/classify.ts, which then reads the bytes) and the composer (which refuses at once,
// before a byte is sent) both go by. Browsers give no type, or a guessed one, for most text and
// code files, so for text the extension speaks first.

/** Extensions read as text when the bytes are UTF-8: prose, data, logs, configuration and source code. */
export const TEXT_EXTENSIONS: ReadonlySet<string> = new Set(
  (
    "txt text md markdown mdx rst adoc org tex csv tsv json jsonl ndjson yaml yml toml ini cfg conf env properties xml svg html htm css scss less " +
    "log out err diff patch js jsx mjs cjs ts tsx py pyi rb go rs java kt kts scala swift c h cc cpp cxx hpp hh cs fs m mm php pl pm r jl lua dart " +
    "sh bash zsh fish ps1 bat cmd sql graphql gql proto tf hcl nix vue svelte astro ex exs erl hrl clj cljs edn elm hs ml mli zig v sol gradle cmake " +
    "makefile dockerfile gitignore gitattributes editorconfig lock"
  ).split(" "),
);

/** Declared types that are text whatever the extension. */
export const TEXT_MEDIA_TYPES = /^(text\/|application\/(json|xml|x-yaml|yaml|toml|javascript|typescript|x-sh|x-python|sql|x-ndjson|ld\+json)\b)/;

const IMAGE_EXTENSIONS: ReadonlySet<string> = new Set(["png", "jpg", "jpeg", "gif", "webp"]);

/** A file name's extension, lower case, without the dot; a name without one ("Makefile") is its own. */
export function fileExtension(name: string): string {
  const base = name.toLowerCase().split(/[\\/]/).pop() ?? "";
  const dot = base.lastIndexOf(".");
  return dot < 0 ? base : base.slice(dot + 1);
}

/**
 * The kind a file would be stored as, judged before its bytes are read, or null when it cannot
 * be attached. `mediaType` is what the browser says (often "" or application/octet-stream for
 * text). An image of a type Claude does not read (HEIC, BMP, TIFF) is refused whatever its name;
 * the upload route has the last word, from the bytes.
 */
export function fileKindOf(name: string, mediaType: string): FileKind | null {
  const type = mediaType.split(";")[0].trim().toLowerCase();
  const ext = fileExtension(name);
  if ((IMAGE_TYPES as readonly string[]).includes(type)) return "image";
  if (type === "application/pdf") return "pdf";
  if (TEXT_EXTENSIONS.has(ext) || TEXT_MEDIA_TYPES.test(type)) return "text";
  if (type.startsWith("image/")) return null;
  if (IMAGE_EXTENSIONS.has(ext)) return "image";
  if (ext === "pdf") return "pdf";
  return null;
}

/** The `accept` attribute of a file input: every type and extension above. */
export const FILE_INPUT_ACCEPT = [
  ...IMAGE_TYPES,
  ...[...IMAGE_EXTENSIONS].map((e) => `.${e}`),
  "application/pdf",
  ".pdf",
  "text/*",
  "application/json",
  "application/xml",
  ...[...TEXT_EXTENSIONS].map((e) => `.${e}`),
].join(",");
