// Full-text pieces shared by history and memory search: a query's lexemes, a tsquery of any of
// them, and how often each occurs in a row's tsvector.
import "server-only";
import type { Tx } from "./driver";

/** The most words of a query that search reads: a pasted paragraph as a query costs a query's worth. */
const MAX_QUERY_TERMS = 32;

/** SQL: the distinct lexemes (column `lexeme`) of the query text in parameter `text`, as full-text search stems them (English). */
export const lexemesOf = (text: string) => `select distinct l as lexeme from unnest(tsvector_to_array(to_tsvector('english', ${text}))) l limit ${MAX_QUERY_TERMS}`;

export async function queryLexemes(tx: Tx, text: string): Promise<string[]> {
  const rows = await tx.query<{ lexeme: string }>(lexemesOf("$1"), [text]);
  return rows.map((r) => r.lexeme);
}

/** A tsquery matching any of the lexemes, already stemmed, so quoted rather than parsed again. */
export function lexemeQuery(lexemes: readonly string[]): string {
  return lexemes.map((l) => `'${l.replace(/\\/g, "\\\\").replace(/'/g, "''")}'`).join(" | ");
}

/**
 * SQL: the part of `alias`.search holding the lexemes in parameter `param` (text[]), as tsvector
 * text for `termCountsOf`: marking those lexemes' positions and keeping only the marked is two
 * C functions per row, where unnesting every lexeme of a long message into rows is not.
 */
export const termCounts = (param: string, alias: string) => `ts_filter(setweight(${alias}.search, 'A', ${param}::text[]), '{a}')::text`;

/** Occurrences per lexeme of a `termCounts` value (`'error':2A,5A 'npx':7A`). */
export function termCountsOf(tsvector: string): Record<string, number> {
  const out: Record<string, number> = {};
  for (const m of tsvector.matchAll(/'((?:[^']|'')*)'(?::([0-9A-D,]+))?/g)) {
    out[m[1].replace(/''/g, "'").replace(/\\\\/g, "\\")] = m[2] ? m[2].split(",").length : 1;
  }
  return out;
}
