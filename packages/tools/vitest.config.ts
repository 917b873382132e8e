import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["src/**/*.test.ts"],
    reporters: ["default", "json"],
    outputFile: { json: "reports/vitest.json" },
    // The terminal and sandbox tests start real processes, seconds each on a loaded machine.
    testTimeout: 30_000,
  },
});
