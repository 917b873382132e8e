// Lint rules for every project. The module-boundary rule enforces the import
// direction of docs/explanation/architecture.md: a wrong import fails lint.
import js from "@eslint/js";
import nx from "@nx/eslint-plugin";
import prettier from "eslint-config-prettier";
import tseslint from "typescript-eslint";

// `@xzatoma/errors` and `@xzatoma/redaction` are the packages every other may import; they
// import none.
const leaf = ["scope:errors", "scope:redaction"];
const agentLibraries = [...leaf, "scope:core", "scope:conversation", "scope:safety"];

const moduleBoundaries = {
  enforceBuildableLibDependency: true,
  allow: [],
  depConstraints: [
    { sourceTag: "scope:errors", onlyDependOnLibsWithTags: [] },
    { sourceTag: "scope:redaction", onlyDependOnLibsWithTags: [] },
    { sourceTag: "scope:conversation", onlyDependOnLibsWithTags: leaf },
    { sourceTag: "scope:safety", onlyDependOnLibsWithTags: leaf },
    { sourceTag: "scope:xzepr", onlyDependOnLibsWithTags: leaf },
    {
      sourceTag: "scope:core",
      onlyDependOnLibsWithTags: [...leaf, "scope:conversation", "scope:safety"],
    },
    { sourceTag: "scope:providers", onlyDependOnLibsWithTags: agentLibraries },
    { sourceTag: "scope:tools", onlyDependOnLibsWithTags: agentLibraries },
    { sourceTag: "scope:persistence", onlyDependOnLibsWithTags: agentLibraries },
    // MCP servers' tools, built with core's defineTool; the runtime adds them to the registry.
    { sourceTag: "scope:mcp", onlyDependOnLibsWithTags: agentLibraries },
    {
      // The one composition root: turns configuration into a running agent for every front end.
      sourceTag: "scope:runtime",
      // Never the watcher or XZepr: an embedder of the agent installs no Kafka client. The
      // configuration file's `watcher` and `xzepr` sections are the runtime's own schemas.
      onlyDependOnLibsWithTags: [
        ...agentLibraries,
        "scope:tools",
        "scope:providers",
        "scope:persistence",
        "scope:mcp",
      ],
    },
    {
      // The service runs events through an executor it is given; its `runtime` entry gives it
      // the agent runtime's (docs/explanation/watcher-wiring.md).
      sourceTag: "scope:watcher",
      onlyDependOnLibsWithTags: [
        ...agentLibraries,
        "scope:persistence",
        "scope:xzepr",
        "scope:runtime",
      ],
    },
    // The apps' OpenTelemetry SDK start-up: the one library that may load the SDK.
    { sourceTag: "scope:otel", onlyDependOnLibsWithTags: agentLibraries },
    // Workspace checks test the published shape of every package.
    { sourceTag: "scope:testing", onlyDependOnLibsWithTags: ["*"] },
    {
      sourceTag: "scope:example",
      onlyDependOnLibsWithTags: [
        "scope:errors",
        "scope:core",
        "scope:safety",
        "scope:conversation",
      ],
    },
    { sourceTag: "type:lib", notDependOnLibsWithTags: ["type:app", "type:example"] },
    { sourceTag: "type:app", onlyDependOnLibsWithTags: ["type:lib"] },
  ],
};

export default tseslint.config(
  {
    ignores: ["**/dist/**", "**/node_modules/**", "**/reports/**", ".toolchain/**", ".nx/**"],
  },
  js.configs.recommended,
  ...tseslint.configs.strict,
  {
    files: ["**/*.ts"],
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    plugins: { "@nx": nx },
    rules: {
      "@typescript-eslint/no-floating-promises": "error",
      "@typescript-eslint/no-misused-promises": "error",
      "@typescript-eslint/await-thenable": "error",
      "@typescript-eslint/consistent-type-imports": "error",
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_" }],
      "@nx/enforce-module-boundaries": ["error", moduleBoundaries],
    },
  },
  {
    // Tests may use the workspace's scripted servers, and @xzatoma/otel's run telemetry to see
    // a run's spans; production code may not.
    files: ["**/*.test.ts"],
    rules: {
      "@typescript-eslint/no-non-null-assertion": "off",
      "@nx/enforce-module-boundaries": [
        "error",
        { ...moduleBoundaries, allow: ["@xzatoma/scripted-servers/*", "@xzatoma/otel"] },
      ],
    },
  },
  {
    files: ["**/*.js", "**/*.mjs"],
    ...tseslint.configs.disableTypeChecked,
    languageOptions: { globals: { process: "readonly", console: "readonly", URL: "readonly" } },
  },
  prettier,
);
