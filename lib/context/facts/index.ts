// Facts for memory: extraction from turns and consolidation against stored facts. Pure.
export * from "./extract";
export * from "./consolidate";
