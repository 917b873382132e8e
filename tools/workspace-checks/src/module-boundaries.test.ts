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

describe("import direction", () => {
  it.each([
    ["packages/safety", "@xzatoma/core", "Agent"],
    ["packages/conversation", "@xzatoma/safety", "createPathGuard"],
    ["packages/xzepr", "@xzatoma/core", "Agent"],
    ["packages/core", "@xzatoma/tools", "createReadFileTool"],
    ["packages/core", "@xzatoma/providers", "createOllamaModel"],
    ["packages/tools", "@xzatoma/providers", "createOllamaModel"],
    ["packages/providers", "@xzatoma/tools", "createReadFileTool"],
    ["packages/core", "@xzatoma/cli", "main"],
    ["packages/providers", "@xzatoma/scripted-servers/ollama", "startScriptedOllama"],
  ])("%s may not import %s", async (from, imported, name) => {
    const errors = await boundaryErrors(from, imported, name);
    expect(errors.some((error) => error.startsWith("@nx/enforce-module-boundaries"))).toBe(true);
  });

  it.each([
    ["packages/core", "@xzatoma/conversation", "userMessage"],
    ["packages/tools", "@xzatoma/core", "defineTool"],
    ["packages/tools", "@xzatoma/safety", "createPathGuard"],
    ["packages/watcher", "@xzatoma/xzepr", "parseXzeprEvent"],
    ["apps/cli", "@xzatoma/core", "Agent"],
  ])("%s may import %s", async (from, imported, name) => {
    expect(await boundaryErrors(from, imported, name)).toEqual([]);
  });
});
