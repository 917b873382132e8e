// The import direction of docs/explanation/architecture.md is enforced by lint. These
// cases lint a probe import as if it were a file of the named package, so a rule that
// stopped working would fail here.
import path from "node:path";
import { fileURLToPath } from "node:url";
import { ESLint } from "eslint";
import { describe, expect, it } from "vitest";

const root = path.resolve(fileURLToPath(new URL("../../..", import.meta.url)));
const eslint = new ESLint({
  cwd: root,
  overrideConfig: [
    {
      files: ["**/*.ts"],
      // The probe file does not exist on disk, so type-aware rules cannot run on it.
      languageOptions: { parserOptions: { projectService: false, project: null } },
      rules: {
        "@typescript-eslint/no-floating-promises": "off",
        "@typescript-eslint/no-misused-promises": "off",
        "@typescript-eslint/await-thenable": "off",
      },
    },
  ],
});

async function boundaryErrors(
  fromPackage: string,
  importedPackage: string,
  name: string,
): Promise<string[]> {
  const file = path.join(root, fromPackage, "src", "boundary-probe.ts");
  const [result] = await eslint.lintText(
    `import { ${name} } from "${importedPackage}";\nexport const probe = ${name};\n`,
    {
      filePath: file,
    },
  );
  return (result?.messages ?? []).map(
    (message) => `${message.ruleId ?? "parser"}: ${message.message}`,
  );
}

// The rule refuses an import for one of three reasons, and a case names the one it expects:
// the tags (`depConstraints`), a cycle (the imported package already depends on the
// importer, so the tags are never consulted), or a buildable library importing workspace
// tooling. Checking the reason keeps a cycle from hiding a tag rule that stopped working.
const REASONS = {
  tags: /can only depend on libs tagged with|cannot depend on any libs with tags|cannot depend on libs tagged with/,
  cycle: /Circular dependency between/,
  buildable: /Buildable libraries cannot import or export from non-buildable libraries/,
} as const;

describe("import direction", () => {
  it.each<[string, string, string, keyof typeof REASONS]>([
    // core imports safety's approval vocabulary, so safety importing core back is a cycle
    // before the tags are consulted (xzepr and conversation below are refused by the tags).
    ["packages/safety", "@xzatoma/core", "Agent", "cycle"],
    ["packages/conversation", "@xzatoma/safety", "createPathGuard", "tags"],
    ["packages/xzepr", "@xzatoma/core", "Agent", "tags"],
    ["packages/core", "@xzatoma/tools", "createReadFileTool", "cycle"],
    ["packages/core", "@xzatoma/providers", "createOllamaModel", "cycle"],
    ["packages/tools", "@xzatoma/providers", "createOllamaModel", "tags"],
    ["packages/providers", "@xzatoma/tools", "createReadFileTool", "tags"],
    ["packages/core", "@xzatoma/cli", "main", "cycle"],
    ["packages/providers", "@xzatoma/scripted-servers/ollama", "startScriptedOllama", "buildable"],
    // Only an app, the watcher (its `runtime` entry) or an embedder imports the runtime, the
    // one composition root. Every other library but otel is one the runtime composes, so
    // importing it back is a cycle; otel is not, so the tag rule itself must refuse it.
    ["packages/otel", "@xzatoma/runtime", "createAgentRuntime", "tags"],
    ["packages/core", "@xzatoma/runtime", "createAgentRuntime", "cycle"],
    ["packages/tools", "@xzatoma/runtime", "createAgentRuntime", "cycle"],
    ["packages/providers", "@xzatoma/runtime", "createAgentRuntime", "cycle"],
    ["packages/persistence", "@xzatoma/runtime", "createAgentRuntime", "cycle"],
    // The watcher's `runtime` entry joins the service to the runtime, so the runtime importing
    // the watcher back is a cycle; XZepr it may not import by its tags: an embedder of the
    // agent installs no Kafka client (docs/explanation/watcher-wiring.md).
    ["packages/runtime", "@xzatoma/watcher", "createWatcherService", "cycle"],
    ["packages/runtime", "@xzatoma/xzepr", "createXzeprClient", "tags"],
    ["packages/mcp", "@xzatoma/runtime", "createAgentRuntime", "cycle"],
    // errors is the leaf: it imports nothing. Every library imports it (directly or through
    // core), so importing any of them back is a cycle before the tags are consulted.
    ["packages/errors", "@xzatoma/conversation", "userMessage", "cycle"],
    ["packages/errors", "@xzatoma/core", "Agent", "cycle"],
    // redaction is a leaf too: safety imports it, so importing safety back is a cycle.
    ["packages/redaction", "@xzatoma/safety", "createPathGuard", "cycle"],
    ["packages/redaction", "@xzatoma/conversation", "userMessage", "tags"],
    // Only the runtime imports mcp, and mcp sees only errors, core, conversation and safety.
    ["packages/tools", "@xzatoma/mcp", "createMcpManager", "tags"],
    ["packages/core", "@xzatoma/mcp", "createMcpManager", "cycle"],
    ["packages/mcp", "@xzatoma/tools", "createReadFileTool", "tags"],
    ["packages/mcp", "@xzatoma/providers", "createOllamaModel", "tags"],
    // Only the apps import otel, and otel sees only errors, core, conversation and safety.
    ["packages/runtime", "@xzatoma/otel", "startSdk", "tags"],
    ["packages/core", "@xzatoma/otel", "startSdk", "cycle"],
    ["packages/otel", "@xzatoma/providers", "createOllamaModel", "tags"],
  ])("%s may not import %s (%s, refused by %s)", async (from, imported, name, reason) => {
    const errors = await boundaryErrors(from, imported, name);
    const boundary = errors.filter((error) => error.startsWith("@nx/enforce-module-boundaries"));
    expect(
      boundary.some((error) => REASONS[reason].test(error)),
      errors.join("\n"),
    ).toBe(true);
  });

  it.each([
    ["packages/core", "@xzatoma/conversation", "userMessage"],
    ["packages/tools", "@xzatoma/core", "defineTool"],
    ["packages/tools", "@xzatoma/safety", "createPathGuard"],
    ["packages/watcher", "@xzatoma/xzepr", "parseXzeprEvent"],
    ["apps/cli", "@xzatoma/core", "Agent"],
    ["apps/cli", "@xzatoma/runtime", "createAgentRuntime"],
    ["apps/watcher", "@xzatoma/runtime", "createAgentRuntime"],
    ["packages/runtime", "@xzatoma/mcp", "createMcpManager"],
    ["packages/runtime", "@xzatoma/providers", "createOllamaModel"],
    ["packages/mcp", "@xzatoma/core", "defineTool"],
    ["apps/cli", "@xzatoma/otel", "startSdk"],
    ["apps/watcher", "@xzatoma/otel", "startSdk"],
    ["packages/otel", "@xzatoma/core", "Agent"],
    ["packages/safety", "@xzatoma/errors", "XzatomaError"],
    ["packages/xzepr", "@xzatoma/errors", "XzatomaError"],
    ["packages/core", "@xzatoma/errors", "XzatomaError"],
    ["packages/conversation", "@xzatoma/errors", "XzatomaError"],
    ["packages/persistence", "@xzatoma/errors", "XzatomaError"],
    ["packages/tools", "@xzatoma/errors", "XzatomaError"],
    ["packages/watcher", "@xzatoma/errors", "XzatomaError"],
    ["packages/watcher", "@xzatoma/runtime", "createAgentRuntime"],
    ["packages/providers", "@xzatoma/redaction", "redactSecrets"],
    ["packages/persistence", "@xzatoma/redaction", "redactSecrets"],
    ["packages/safety", "@xzatoma/redaction", "redactSecrets"],
    ["packages/core", "@xzatoma/safety", "decideApproval"],
  ])("%s may import %s", async (from, imported, name) => {
    expect(await boundaryErrors(from, imported, name)).toEqual([]);
  });
});
