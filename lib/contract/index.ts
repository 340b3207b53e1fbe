// The API contract: every request and response shape once, as zod schemas, and the TypeScript
// types inferred from them. A leaf: it imports nothing of ours but the model registry.
export * from "./canvas";

export * from "./checkpoints";
export * from "./context";
export * from "./errors";
export * from "./exchange";
export * from "./imports";
export * from "./files";
export * from "./integrations";
export * from "./memory";
export * from "./messages";
export * from "./search";
export * from "./send";
export * from "./sessions";
export * from "./settings";
export * from "./usage";
export * from "./preferences";
export * from "./live";
