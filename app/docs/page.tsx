"use client";
// The REST API's OpenAPI document (/api/openapi.json), rendered by Swagger UI. The page
// fetches the document itself so a failure (signed out, offline) reads as a sentence rather
// than as Swagger UI's parser error.
import dynamic from "next/dynamic";
import Link from "next/link";
import { useEffect, useRef, useState } from "react";
import "swagger-ui-react/swagger-ui.css";
import "./swagger-theme.css";
import { useSwaggerA11y } from "./swagger-a11y";

// Swagger UI touches the DOM as it loads, and it is large: only the browser fetches it, only here.
const SwaggerUI = dynamic(() => import("swagger-ui-react"), { ssr: false, loading: () => <Loading /> });

type Doc = { kind: "loading" } | { kind: "ready"; spec: object } | { kind: "failed"; message: string };

interface TryItRequest {
  method?: string;
  headers?: Record<string, string>;
  body?: unknown;
}

/**
 * "Try it out" calls this origin with the browser's session: writes must then be JSON (the
 * CSRF rule), bodiless DELETEs and POSTs included, which Swagger UI sends without a type.
 */
function asJsonWrite<R extends TryItRequest>(req: R): R {
  const method = (req.method ?? "GET").toUpperCase();
  const headers = req.headers ?? {};
  const typed = Object.keys(headers).some((h) => h.toLowerCase() === "content-type");
  if (method !== "GET" && method !== "HEAD" && !typed) req.headers = { ...headers, "Content-Type": "application/json" };
  return req;
}

/**
 * Swagger UI ships a dark theme keyed on `html.dark-mode`; the workspace's theme sets
 * `html.dark`. Mirror one onto the other while this page is open, theme switches included.
 */
function useSwaggerDarkMode(): void {
  useEffect(() => {
    const html = document.documentElement;
    const sync = () => html.classList.toggle("dark-mode", html.classList.contains("dark"));
    sync();
    const observer = new MutationObserver(sync);
    observer.observe(html, { attributes: true, attributeFilter: ["class"] });
    return () => {
      observer.disconnect();
      html.classList.remove("dark-mode");
    };
  }, []);
}

function Loading() {
  return (
    <p className="tk-docs-note" data-testid="docs-loading">
      Loading the API description…
    </p>
  );
}

export default function DocsPage() {
  const [doc, setDoc] = useState<Doc>({ kind: "loading" });
  useSwaggerDarkMode();
  const main = useRef<HTMLElement>(null);
  useSwaggerA11y(main);

  useEffect(() => {
    let live = true;
    (async () => {
      const res = await fetch("/api/openapi.json", { headers: { accept: "application/json" } });
      const body = (await res.json()) as { error?: { message?: string } };
      if (!res.ok) throw new Error(body.error?.message ?? `The document could not be loaded (HTTP ${res.status}).`);
      return body;
    })().then(
      (spec) => live && setDoc({ kind: "ready", spec }),
      (err: unknown) => live && setDoc({ kind: "failed", message: err instanceof Error ? err.message : String(err) }),
    );
    return () => {
      live = false;
    };
  }, []);

  return (
    <div className="tk-docs min-h-screen">
      <header className="tk-docs-bar">
        <div className="mx-auto flex max-w-5xl flex-wrap items-center gap-x-4 gap-y-1 px-4 py-3">
          <Link href="/" className="tk-docs-link text-sm font-medium">
            ← Threadkeeper
          </Link>
          <h1 className="text-base font-semibold">API docs</h1>
          <a href="/api/openapi.json" className="tk-docs-link ml-auto text-sm" data-testid="docs-raw">
            openapi.json
          </a>
        </div>
      </header>
      <main ref={main} className="mx-auto max-w-5xl px-2 pb-12 sm:px-4" data-testid="docs">
        {doc.kind === "loading" && <Loading />}
        {doc.kind === "failed" && (
          <p role="alert" className="tk-docs-note tk-docs-error" data-testid="docs-error">
            {doc.message}
          </p>
        )}
        {doc.kind === "ready" && (
          <SwaggerUI
            spec={doc.spec}
            docExpansion="list"
            defaultModelsExpandDepth={0}
            displayOperationId
            // Deep links put an <a> inside each operation's toggle button: a control within a
            // control, which screen readers cannot announce (axe: nested-interactive).
            deepLinking={false}
            requestInterceptor={asJsonWrite}
          />
        )}
      </main>
    </div>
  );
}
