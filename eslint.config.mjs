// `npm run lint`; `npm test` runs it first. What it checks and why: docs/testing.md#lint.
import tseslint from "typescript-eslint";
import { layersRule } from "./scripts/lint/layers.mjs";
import { noCycleRule } from "./scripts/lint/cycles.mjs";

const root = import.meta.dirname;
const threadkeeper = { rules: { layers: layersRule, "no-cycle": noCycleRule } };

export default tseslint.config(
  { ignores: [".next/**", "out/**", "data/**", "coverage/**", "test-results/**", "playwright-report/**", "public/**", "next-env.d.ts"] },
  // Registered for every file so `--rule 'threadkeeper/layers: off'` works (npm run lint:code).
  { plugins: { threadkeeper } },
  {
    files: ["**/*.{ts,tsx,mts,mjs}"],
    // typescript-eslint's syntax-only set (no type information: fast, and few findings here).
    extends: [tseslint.configs.recommended],
    linterOptions: { reportUnusedDisableDirectives: "error" },
    rules: {
      "@typescript-eslint/no-explicit-any": "error",
      // Unused imports and variables. `_x` marks an argument kept for its position; a rest
      // sibling (`const { id: _id, ...rest } = x`) is how an object drops a key.
      "@typescript-eslint/no-unused-vars": [
        "error",
        { args: "after-used", argsIgnorePattern: "^_", caughtErrorsIgnorePattern: "^_", ignoreRestSiblings: true },
      ],
    },
  },
  {
    // Layers and circles: the app's code. scripts/ and tests/ sit outside the layers.
    files: ["lib/**/*.{ts,tsx}", "app/**/*.{ts,tsx}", "components/**/*.{ts,tsx}", "middleware.ts", "instrumentation.ts"],
    rules: {
      "threadkeeper/layers": ["error", { root }],
      "threadkeeper/no-cycle": ["error", { root }],
    },
  },
);
