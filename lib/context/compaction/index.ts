// The pure compaction engine: plan, extract, verify, fall back. No I/O; token counting is injected.
export * from "./types";
export * from "./plan";
export * from "./transcript";
export * from "./must-keep";
export * from "./verify";
export * from "./extractive";
export * from "./chunk";
export * from "./templates";
export * from "./overflow";
export * from "./thrash";
export * from "./sections";
