// Number formats for token figures: compact in the bar, exact in the tooltip.

/** 950 → "950", 45_230 → "45K", 4_200 → "4.2K", 1_000_000 → "1M", 1_250_000 → "1.25M". */
export function compactTokens(n: number): string {
  const abs = Math.abs(n);
  if (abs < 1_000) return String(Math.round(n));
  if (abs < 10_000) return `${trim(n / 1_000, 1)}K`;
  if (abs < 1_000_000) return `${Math.round(n / 1_000)}K`;
  return `${trim(n / 1_000_000, 2)}M`;
}

function trim(x: number, digits: number): string {
  return x.toFixed(digits).replace(/\.?0+$/, "");
}

const exact = new Intl.NumberFormat("en-US");

export function exactTokens(n: number): string {
  return exact.format(Math.round(n));
}

/**
 * Rounded down, so the label never reads "70%" while the bar is still green at 69.6 %.
 * Below 10 % one decimal shows early growth.
 */
export function percentLabel(p: number): string {
  if (p > 0 && p < 10) return `${trim(Math.floor(p * 10) / 10, 1)}%`;
  return `${Math.floor(p)}%`;
}

export function relativeTime(iso: string | null, now: number = Date.now()): string {
  if (!iso) return "";
  const t = Date.parse(iso);
  if (Number.isNaN(t)) return "";
  const s = Math.max(0, Math.round((now - t) / 1000));
  if (s < 60) return "just now";
  if (s < 3600) return `${Math.floor(s / 60)} min ago`;
  if (s < 86_400) return `${Math.floor(s / 3600)} h ago`;
  if (s < 7 * 86_400) return `${Math.floor(s / 86_400)} d ago`;
  return new Date(t).toLocaleDateString();
}

/**
 * The one money format: 0 → "$0.00", 0.0042 → "$0.0042" (small costs keep two significant
 * digits), 1.234 → "$1.23", 1234.5 → "$1,235".
 */
export function usd(x: number): string {
  if (x === 0) return "$0.00";
  if (Math.abs(x) < 0.01) return `$${x.toPrecision(2)}`;
  if (Math.abs(x) < 100) return `$${x.toFixed(2)}`;
  return `$${Math.round(x).toLocaleString("en-US")}`;
}

/** Disk space for people: "850 MB", "1.2 GB" (powers of 1024, as df -h counts). */
export function formatBytes(n: number): string {
  const mb = n / (1024 * 1024);
  if (mb < 1) return "under 1 MB";
  if (mb < 1024) return `${Math.round(mb)} MB`;
  return `${(mb / 1024).toFixed(1)} GB`;
}

/** A file's size for people: "900 B", "4.2 KB", "312 KB", "12.3 MB", "1 GB" (powers of 1024, as the limits are set). */
export function humanBytes(n: number): string {
  const units = ["KB", "MB", "GB", "TB"];
  if (n < 1024) return `${Math.max(0, Math.round(n))} B`;
  let x = n / 1024;
  let unit = 0;
  while (x >= 1024 && unit < units.length - 1) {
    x /= 1024;
    unit++;
  }
  return `${x < 100 ? trim(x, 1) : Math.round(x)} ${units[unit]}`;
}
