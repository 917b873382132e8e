import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["src/**/*.test.ts"],
    reporters: ["default", "json"],
    outputFile: { json: "reports/vitest.json" },
    // Packing and installing the packages takes a while on two cores.
    testTimeout: 300_000,
    hookTimeout: 300_000,
  },
});
