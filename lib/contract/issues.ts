import type { z } from "zod";

type Issue = z.core.$ZodIssue;

/**
 * The issues that say what is wrong. A union's own issue says only "Invalid input"; when all of
 * its branches but one failed on the value's kind (a string where an array came) or on a
 * discriminating `type`, that branch's issues, under the union's path, are what the caller needs.
 */
export function decisiveIssues(issues: readonly Issue[]): Issue[] {
  return issues.flatMap((issue): Issue[] => {
    if (issue.code !== "invalid_union" || issue.errors.length === 0) return [issue];
    const matched = issue.errors.filter((branch) => !branch.some(mismatch));
    if (matched.length !== 1) return [issue];
    return decisiveIssues(matched[0].map((i) => ({ ...i, path: [...issue.path, ...i.path] })));
  });
}

/** A branch that failed on what it is for rather than on a field of it. */
const mismatch = (i: Issue) => (i.path.length === 0 && i.code === "invalid_type") || (i.code === "invalid_value" && i.path.length === 1 && i.path[0] === "type");
