import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["src/**/*.test.ts"],
    reporters: ["default", "json"],
    outputFile: { json: "reports/vitest.json" },
    // End-to-end tests drive real processes and a real terminal.
    testTimeout: 30_000,
    hookTimeout: 30_000,
  },
});
