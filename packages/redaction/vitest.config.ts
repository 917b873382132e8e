import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    // Room for a loaded CI machine: no test here may fail for being slow.
    testTimeout: 30_000,
    include: ["src/**/*.test.ts"],
    reporters: ["default", "json"],
    outputFile: { json: "reports/vitest.json" },
  },
});
