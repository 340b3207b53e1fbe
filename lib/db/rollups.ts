// The append-only rollups (migration 20261128000010): the word statistics and the usage per day
// and model take each change as a row of its own, so one user's parallel turns never wait on a
// shared row; readers sum a key's rows. The fold replaces a key's rows by their sum, keeping
// the tables as small as one row per key; it changes no figure, so running it again, or on two
// instances at once, is harmless.
import "server-only";
import type { Tx } from "./driver";

/** Folds up to `maxKeys` keys of each rollup; returns how many it folded (0 while another instance folds). */
export async function foldRollups(tx: Tx, maxKeys: number): Promise<number> {
  const [row] = await tx.query<{ n: number }>("select public.fold_rollups($1) as n", [maxKeys]);
  return row?.n ?? 0;
}
