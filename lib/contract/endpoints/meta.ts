import { group } from "../endpoint";
import { openApiDocumentShape } from "../document";
import { healthShape, healthUnavailableShape, storageShape } from "../health";

export const meta = group("API", "This document, the server's health, and its storage.", {
  getOpenApiDocument: {
    method: "GET",
    path: "/api/openapi.json",
    summary: "This OpenAPI 3.1 document",
    description: "Generated from the zod schemas the routes validate with. Rendered at /docs.",
    responses: { 200: { description: "The document.", json: openApiDocumentShape } },
  },
  getHealth: {
    method: "GET",
    path: "/api/health",
    summary: "Whether this instance can serve",
    description:
      "For load balancers, container health checks and uptime monitors: no credentials, no rate limit, no user data. " +
      "200 when the database answers a cheap query within 2 s (with the latest migration applied and the app's version), " +
      "503 when it does not, and when the server's storage is full (`reason` says so; writes answer 507 `storage_full` meanwhile). Only the Host check applies (a Host name this server does not serve is 403 `forbidden_host`).",
    public: true,
    responses: {
      200: { description: "The server runs and its database answers.", json: healthShape },
      503: { description: "The database did not answer (in time), or the storage is full; `reason` says why in a few words.", json: healthUnavailableShape },
    },
  },
  getStorage: {
    method: "GET",
    path: "/api/storage",
    summary: "How full the server's storage is",
    description:
      "What the app's banner reads: `low` once free space on the embedded database's device is under THREADKEEPER_STORAGE_WARN_MB, `full` under THREADKEEPER_STORAGE_FLOOR_MB or after the database reported a full disk (writes then answer 507 `storage_full`). " +
      "The figures are given in local mode only, where the one user runs the server; SaaS mode answers the level alone.",
    responses: { 200: { description: "The level, and the figures in local mode.", json: storageShape } },
  },
});
