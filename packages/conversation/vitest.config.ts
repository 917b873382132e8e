import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["src/**/*.test.ts"],
    reporters: ["default", "json"],
    outputFile: { json: "reports/vitest.json" },
    // The 2,000-turn pruning test appends and checks thousands of messages: seconds on a
    // loaded machine, well past vitest's 5 s default.
    testTimeout: 60_000,
  },
});
