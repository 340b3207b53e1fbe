// The built server holds more than one copy of lib/errors.ts (instrumentation.ts's bundle and the
// routes'), and the database opened by one throws its errors into the other: an AppError must be
// one whichever copy made it, or a full disk answers 500 (tests/reliability/storage-full.test.ts).
import { expect, it, vi } from "vitest";

it("an AppError made by another copy of the module is still an AppError, and nothing else is", async () => {
  const first = await import("@/lib/errors");
  vi.resetModules();
  const second = await import("@/lib/errors");
  expect(second.AppError).not.toBe(first.AppError);

  const err = second.storageFull();
  expect(err instanceof first.AppError).toBe(true);
  expect(first.notFound("Session") instanceof second.AppError).toBe(true);
  expect(new Error("storage_full") instanceof first.AppError).toBe(false);
  expect(Object.assign(new Error("look-alike"), { status: 507, code: "storage_full" }) instanceof first.AppError).toBe(false);
  expect((JSON.parse("null") as object) instanceof first.AppError).toBe(false);
});
