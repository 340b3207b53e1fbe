"use client";
// One request's state for a dashboard panel: loading, its data, or the server's error. A newer
// request aborts the older one, so a slow answer for the previous range never overwrites.
import { useCallback, useEffect, useRef, useState } from "react";
import { describeError } from "@/lib/client/api/http";

export type Async<T> =
  | { status: "loading"; data: T | null; error: null }
  | { status: "ready"; data: T; error: null }
  | { status: "error"; data: T | null; error: string };

export function useAsync<T>(load: ((signal: AbortSignal) => Promise<T>) | null, deps: readonly unknown[]): Async<T> & { reload(): void } {
  const [state, setState] = useState<Async<T>>({ status: "loading", data: null, error: null });
  const [attempt, setAttempt] = useState(0);
  const loadRef = useRef(load);
  loadRef.current = load;

  useEffect(() => {
    const run = loadRef.current;
    if (!run) return;
    const ctl = new AbortController();
    // Keeps the previous data on screen (dimmed) while the next range loads.
    setState((s) => ({ status: "loading", data: s.data, error: null }));
    run(ctl.signal).then(
      (data) => {
        if (!ctl.signal.aborted) setState({ status: "ready", data, error: null });
      },
      (err: unknown) => {
        if (!ctl.signal.aborted) setState((s) => ({ status: "error", data: s.data, error: describeError(err).message }));
      },
    );
    return () => ctl.abort();
    // The caller names what the request depends on; `load` itself is read through a ref.
  }, [...deps, attempt]);

  const reload = useCallback(() => setAttempt((n) => n + 1), []);
  return { ...state, reload };
}
