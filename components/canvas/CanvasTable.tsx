// A table Claude put on the canvas. Wide tables scroll sideways inside their box (the panel
// never scrolls sideways); the heading row stays in view while the rows scroll.
import type { TableElement } from "@/lib/contract/canvas-elements";

type Cell = TableElement["rows"][number][number];

/** Large numbers grouped (709,037); four digits and fewer as given, so years stay 2024. */
export function cellText(c: Cell): string {
  if (c === null) return "—";
  if (typeof c === "boolean") return c ? "Yes" : "No";
  if (typeof c === "number" && Math.abs(c) >= 10_000) return c.toLocaleString("en-US", { maximumFractionDigits: 6 });
  return String(c);
}

export function CanvasTable({ table }: { table: TableElement }) {
  if (table.rows.length === 0) {
    return <p className="text-sm text-zinc-500 dark:text-zinc-400">No rows.</p>;
  }
  // Numbers line up on the right, as in a spreadsheet, when a column holds only numbers.
  const numeric = table.columns.map((_, j) => table.rows.every((r) => typeof r[j] === "number" || r[j] === null));
  return (
    <div
      data-testid="canvas-table"
      tabIndex={0}
      role="region"
      aria-label={`${table.title ?? "Table"}, scrolls sideways`}
      className="-mx-3.5 max-h-[28rem] overflow-auto border-t border-zinc-100 focus-visible:outline focus-visible:outline-2 focus-visible:outline-sky-500 dark:border-zinc-800"
    >
      {/* As wide as its content (at least the box): squeezed to the box, text columns would wrap word by word. */}
      <table className="w-max min-w-full border-collapse text-left text-xs tabular-nums">
        <thead className="sticky top-0 bg-zinc-50 text-zinc-600 dark:bg-zinc-800 dark:text-zinc-300">
          <tr>
            {table.columns.map((c, j) => (
              <th key={j} scope="col" className={`whitespace-nowrap px-3.5 py-2 font-semibold ${numeric[j] ? "text-right" : ""}`}>
                {c}
              </th>
            ))}
          </tr>
        </thead>
        <tbody className="divide-y divide-zinc-100 text-zinc-800 dark:divide-zinc-800 dark:text-zinc-200">
          {table.rows.map((r, i) => (
            <tr key={i} className="hover:bg-zinc-50 dark:hover:bg-zinc-800/50">
              {r.map((c, j) => (
                <td
                  key={j}
                  className={`px-3.5 py-1.5 align-top ${numeric[j] ? "whitespace-nowrap text-right" : ""} ${
                    c === null ? "text-zinc-400 dark:text-zinc-500" : ""
                  }`}
                >
                  {/* Long text wraps at a readable width instead of making one endless column. */}
                  <div className="max-w-[18rem] break-words">{cellText(c)}</div>
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
