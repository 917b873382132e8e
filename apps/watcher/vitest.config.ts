import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["src/**/*.test.ts"],
    reporters: ["default", "json"],
    outputFile: { json: "reports/vitest.json" },
    // Processed like the app's own source, so the telemetry tests can see which SDK
    // modules @xzatoma/otel loads (mocks apply only to modules the test runner transforms).
    server: { deps: { inline: ["@xzatoma/otel"] } },
    // The tests start real processes (`xzatoma-watcher`, a Kafka broker): seconds each on a
    // loaded machine. Tests that wait longer say so.
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
