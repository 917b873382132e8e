import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["src/**/*.test.ts"],
    // Sandbox and URL cases spawn processes and servers; a loaded CI machine needs room.
    testTimeout: 60_000,
    reporters: ["default", "json"],
    outputFile: { json: "reports/vitest.json" },
  },
});
