// Sums the vitest JSON reports every project's test target writes (restored from the
// Nx cache when the target was cached) and prints one closing line:
//   Tests: N passed, N failed, N skipped (P projects)
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";

interface VitestReport {
  numPassedTests: number;
  numFailedTests: number;
  numPendingTests: number;
  numTodoTests: number;
}

const root = path.resolve(import.meta.dirname, "..");
const projectDirectories = ["packages", "apps", "tools"].flatMap((group) =>
  readdirSync(path.join(root, group), { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => path.join(root, group, entry.name)),
);

let passed = 0;
let failed = 0;
let skipped = 0;
let projects = 0;
for (const directory of projectDirectories) {
  const file = path.join(directory, "reports", "vitest.json");
  if (!existsSync(file)) continue;
  const report = JSON.parse(readFileSync(file, "utf8")) as VitestReport;
  passed += report.numPassedTests;
  failed += report.numFailedTests;
  skipped += report.numPendingTests + report.numTodoTests;
  projects += 1;
}
process.stdout.write(
  `\nTests: ${passed} passed, ${failed} failed, ${skipped} skipped (${projects} projects)\n`,
);
process.exitCode = failed > 0 || passed === 0 ? 1 : 0;
