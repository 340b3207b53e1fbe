// Opens and migrates the database when the server starts, not on the first request
// (PGlite's first start runs initdb, about 2 s).
export async function register() {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  const { getDb } = await import("./lib/db");
  await getDb();
}
