// Sums the vitest JSON reports every project's test target writes (restored from the
// Nx cache when the target was cached) and prints one closing line:
//   Tests: N passed, N failed, N skipped (P projects)
// preceded by each failed test (project, file, name and the first lines of its failure), so
// that the end of a long log says what failed.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";

interface VitestReport {
  numPassedTests: number;
  numFailedTests: number;
  numPendingTests: number;
  numTodoTests: number;
  testResults?: {
    name: string;
    status?: string;
    message?: string;
    assertionResults?: {
      fullName?: string;
      title: string;
      status: string;
      failureMessages?: string[];
    }[];
  }[];
}

/** The first lines of a failure, without colour codes. */
function firstLines(message: string, count = 6): string {
  // eslint-disable-next-line no-control-regex
  const plain = message.replace(/\u001b\[[0-9;]*m/g, "");
  return plain
    .split("\n")
    .slice(0, count)
    .map((line) => `      ${line}`)
    .join("\n");
}

const root = path.resolve(import.meta.dirname, "..");
const projectDirectories = ["packages", "apps", "tools", "examples"].flatMap((group) =>
  readdirSync(path.join(root, group), { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => path.join(root, group, entry.name)),
);

let passed = 0;
let failed = 0;
let skipped = 0;
let projects = 0;
const failures: string[] = [];
for (const directory of projectDirectories) {
  const file = path.join(directory, "reports", "vitest.json");
  if (!existsSync(file)) continue;
  const report = JSON.parse(readFileSync(file, "utf8")) as VitestReport;
  passed += report.numPassedTests;
  failed += report.numFailedTests;
  skipped += report.numPendingTests + report.numTodoTests;
  projects += 1;
  for (const file of report.testResults ?? []) {
    const where = `${path.relative(root, directory)}: ${path.relative(directory, file.name)}`;
    const failedTests = (file.assertionResults ?? []).filter((test) => test.status === "failed");
    for (const test of failedTests) {
      failures.push(
        `  FAILED ${where} > ${test.fullName ?? test.title}\n${firstLines(test.failureMessages?.[0] ?? "")}`,
      );
    }
    // A file that failed without a failed test: it did not load, or a hook threw.
    if (failedTests.length === 0 && file.status === "failed") {
      failures.push(`  FAILED ${where}\n${firstLines(file.message ?? "")}`);
    }
  }
}
if (failures.length > 0) process.stdout.write(`\nFailed tests:\n${failures.join("\n")}\n`);
process.stdout.write(
  `\nTests: ${passed} passed, ${failed} failed, ${skipped} skipped (${projects} projects)\n`,
);
process.exitCode = failed > 0 || passed === 0 ? 1 : 0;
