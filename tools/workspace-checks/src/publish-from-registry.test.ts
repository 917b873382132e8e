// Publishable for real: `nx release publish` puts every publishable package on a local npm
// registry (tools/registry/start.sh, Verdaccio on 127.0.0.1, empty storage for this run);
// then, in an empty directory whose npm knows only that registry, `npx @xzatoma/cli` answers
// `--version` and runs a prompt against a scripted OpenAI-compatible server, and the
// embedding programs of README.md and docs/how-to/embed-the-agent.md run, one of them with a
// third-party tool package (examples/notes-tools, published the way its author would).
// The tarballs checked are the ones the registry serves.
import { execFile, execFileSync } from "node:child_process";
import { cpSync, existsSync, readFileSync } from "node:fs";
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import {
  SCENARIOS as OLLAMA_SCENARIOS,
  startScriptedOllama,
  type ScriptedOllama,
} from "@xzatoma/scripted-servers/ollama";
import {
  lastText,
  startScriptedOpenAI,
  toolResultCount,
  type ScriptedOpenAI,
} from "@xzatoma/scripted-servers/openai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  WORKSPACE_ROOT,
  createRegistryProject,
  installFromRegistry,
  publishablePackages,
  publishWorkspace,
  registryVersions,
  runNx,
  startLocalRegistry,
  type LocalRegistry,
} from "./local-registry.js";

const run = promisify(execFile);

/** The first ```ts block after `heading` in a Markdown file of the workspace. */
function programIn(file: string, heading: string): string {
  const text = readFileSync(path.join(WORKSPACE_ROOT, file), "utf8");
  const from = text.indexOf(heading);
  const block = /```ts\n([\s\S]*?)```/.exec(text.slice(from));
  if (from < 0 || !block?.[1]) throw new Error(`${file}: no ts block after '${heading}'`);
  return block[1];
}

/**
 * The how-to's program with a tool package beside the built-in tools, loaded by name from
 * the project's node_modules as the configuration's `tools.packages` does, and an approval
 * handler (without one, the agent refuses every call that writes, such as save_note).
 */
function withNotesTools(program: string): string {
  const withImport = program.replace(
    'import { Agent } from "@xzatoma/core";',
    'import { Agent, loadToolPackage } from "@xzatoma/core";',
  );
  const withTools = withImport.replace(
    "tools: createBuiltinTools(workspace),",
    `tools: [
    ...createBuiltinTools(workspace),
    ...(await loadToolPackage("@xzatoma/example-notes-tools", {
      context: { root: workspace.root, options: { directory: "notes" } },
      resolveFrom: import.meta.dirname,
    })),
  ],
  approve: () => ({ approved: true }),`,
  );
  if (withTools === program || withImport === program) {
    throw new Error("the how-to's program no longer has the lines this test extends");
  }
  return withTools;
}

const CLI = publishablePackages().find((entry) => entry.name === "@xzatoma/cli");

let base: string;
let registry: LocalRegistry;
let project: string;
let environment: NodeJS.ProcessEnv;
let publishOutput: string;

beforeAll(async () => {
  base = await mkdtemp(path.join(tmpdir(), "xz-registry-"));
  registry = await startLocalRegistry(path.join(base, "registry"));
  publishOutput = publishWorkspace(registry.url);

  // The example tool package, published as its author would publish it: packed by pnpm
  // (workspace ranges become versions), without the `private` that keeps it out of releases.
  const example = path.join(base, "notes-tools");
  await mkdir(example);
  // Its own build only: its dependencies' dist/ are in use by other projects' tests.
  runNx(["run", "@xzatoma/example-notes-tools:build", "--excludeTaskDependencies"]);
  execFileSync("pnpm", ["pack", "--pack-destination", example], {
    cwd: path.join(WORKSPACE_ROOT, "examples/notes-tools"),
    stdio: ["ignore", "ignore", "inherit"],
  });
  execFileSync("sh", ["-c", "tar -xzf ./*.tgz && rm ./*.tgz"], { cwd: example });
  const manifestPath = path.join(example, "package", "package.json");
  const manifest = JSON.parse(await readFile(manifestPath, "utf8")) as Record<string, unknown>;
  delete manifest["private"];
  await writeFile(manifestPath, `${JSON.stringify(manifest, null, 2)}\n`);
  cpSync(path.join(WORKSPACE_ROOT, "LICENSE"), path.join(example, "package", "LICENSE"));

  project = path.join(base, "project");
  environment = createRegistryProject(project, registry.url, path.join(base, "npm-cache"));
  // npm wants a token to publish; the local registry lets anyone publish, so any will do.
  execFileSync(
    "npm",
    [
      "publish",
      path.join(example, "package"),
      "--provenance=false",
      `--//127.0.0.1:${registry.port}/:_authToken=local`,
    ],
    { cwd: project, env: environment, stdio: ["ignore", "ignore", "inherit"] },
  );
});

afterAll(async () => {
  registry?.stop();
  if (base) await rm(base, { recursive: true, force: true });
});

describe("nx release publish to the local registry", () => {
  it("publishes every package that is not private, at its manifest's version", async () => {
    const packages = publishablePackages();
    expect(packages.map((entry) => entry.name)).toContain("@xzatoma/cli");
    for (const entry of packages) {
      expect(await registryVersions(registry.url, entry.name), entry.name).toEqual([entry.version]);
    }
    expect(publishOutput).toContain(`Published to ${registry.url}`);
  });

  it("publishes no private package (the watcher service app keeps a name of its own)", async () => {
    const names = publishablePackages().map((entry) => entry.name);
    expect(names).toContain("@xzatoma/watcher");
    expect(names).not.toContain("@xzatoma/watcher-service");
    expect(await registryVersions(registry.url, "@xzatoma/watcher-service")).toEqual([]);
  });

  it("serves tarballs with a license, a changelog, public provenance and absolute doc links", async () => {
    const tarballs = path.join(base, "tarballs");
    await mkdir(tarballs, { recursive: true });
    for (const entry of publishablePackages()) {
      const packument = (await (
        await fetch(`${registry.url}/${entry.name.replace("/", "%2f")}`)
      ).json()) as { versions: Record<string, { dist: { tarball: string } }> };
      const url = packument.versions[entry.version]?.dist.tarball ?? "";
      expect(url.startsWith(`${registry.url}/`), url).toBe(true);
      const file = path.join(tarballs, `${entry.name.replace("/", "-")}.tgz`);
      await writeFile(file, Buffer.from(await (await fetch(url)).arrayBuffer()));

      const files = execFileSync("tar", ["-tzf", file], { encoding: "utf8" }).split("\n");
      for (const required of ["LICENSE", "README.md", "CHANGELOG.md", "package.json"]) {
        expect(files, `${entry.name}: ${required}`).toContain(`package/${required}`);
      }
      const read = (name: string) =>
        execFileSync("tar", ["-xzOf", file, `package/${name}`], { encoding: "utf8" });
      const manifest = JSON.parse(read("package.json")) as {
        homepage?: string;
        bugs?: { url?: string };
        publishConfig?: { access?: string; provenance?: boolean };
        dependencies?: Record<string, string>;
        peerDependencies?: Record<string, string>;
      };
      expect(manifest.homepage, entry.name).toMatch(/^https:\/\//);
      expect(manifest.bugs?.url, entry.name).toMatch(/^https:\/\/.*\/issues$/);
      expect(manifest.publishConfig, entry.name).toEqual({ access: "public", provenance: true });
      const ranges = Object.values({ ...manifest.dependencies, ...manifest.peerDependencies });
      expect(
        ranges.filter((range) => range.startsWith("workspace:")),
        entry.name,
      ).toEqual([]);
      // A registry page shows the README out of the repository: its links must be absolute.
      const relative = [...read("README.md").matchAll(/\]\(([^)]+)\)/g)]
        .map((match) => match[1] ?? "")
        .filter((target) => !/^(https?:|mailto:|#)/.test(target));
      expect(relative, `${entry.name} README.md`).toEqual([]);
      expect(read("CHANGELOG.md"), entry.name).toContain(`## ${entry.version}`);
    }
  });
});

describe("an empty directory whose npm knows only the local registry", () => {
  it("runs `npx @xzatoma/cli --version`", async () => {
    const { stdout } = await run("npx", ["--yes", "@xzatoma/cli", "--version"], {
      cwd: project,
      env: environment,
      encoding: "utf8",
      timeout: 600_000,
    });
    expect(stdout).toBe(`xzatoma ${CLI?.version}\n`);
  });

  it("runs `npx @xzatoma/cli run --prompt ...` against an OpenAI-compatible server", async () => {
    const workspace = path.join(base, "cli-workspace");
    await mkdir(workspace);
    await writeFile(path.join(workspace, "README.md"), "Installed from the registry.\n");
    let server: ScriptedOpenAI | undefined;
    try {
      server = await startScriptedOpenAI({
        scenario: (request) =>
          toolResultCount(request) === 0
            ? { toolCalls: [{ name: "read_file", arguments: { path: "README.md" } }] }
            : {
                content: `The README says: ${lastText(request, "tool").trim().split("\n").at(-1)}`,
              },
      });
      // Asynchronous on purpose: the scripted server answers from this process.
      const { stdout } = await run(
        "npx",
        [
          "--yes",
          "@xzatoma/cli",
          "run",
          "--provider",
          "openai",
          "--model",
          "scripted",
          "--workspace",
          workspace,
          "--prompt",
          "What does README.md say?",
        ],
        {
          cwd: project,
          env: {
            ...environment,
            HOME: path.join(base, "home"),
            OPENAI_BASE_URL: server.url,
            OPENAI_API_KEY: "scripted",
            XZATOMA_AGENT_TIMEOUT_SECONDS: "86400",
          },
          encoding: "utf8",
          timeout: 600_000,
        },
      );
      expect(stdout).toContain("The README says:");
      expect(stdout).toContain("Installed from the registry.");
      expect(server.chatRequests.length).toBe(2);
    } finally {
      await server?.close();
    }
  });

  describe("with the embedding packages and a tool package installed with npm", () => {
    let ollama: ScriptedOllama;
    let workspace: string;

    beforeAll(async () => {
      installFromRegistry(project, environment, [
        "@xzatoma/core",
        "@xzatoma/providers",
        "@xzatoma/tools",
        "@xzatoma/example-notes-tools",
      ]);
      workspace = path.join(base, "embed-workspace");
      await mkdir(workspace);
      await writeFile(path.join(workspace, "README.md"), "Embedded XZatoma works.\n");
    });

    afterAll(async () => {
      await ollama?.close();
    });

    async function runProgram(file: string, program: string): Promise<string> {
      await writeFile(path.join(project, file), program);
      const { stdout, stderr } = await run(
        process.execPath,
        [path.join(project, file), workspace],
        {
          cwd: workspace,
          env: { ...environment, OLLAMA_HOST: ollama.url },
          encoding: "utf8",
          timeout: 120_000,
        },
      );
      expect(stderr).toBe("");
      return stdout;
    }

    it("installed only from the registry", () => {
      const lock = JSON.parse(readFileSync(path.join(project, "package-lock.json"), "utf8")) as {
        packages: Record<string, { resolved?: string }>;
      };
      const resolved = Object.values(lock.packages)
        .map((entry) => entry.resolved)
        .filter((url): url is string => url !== undefined);
      expect(resolved.length).toBeGreaterThan(10);
      expect(resolved.filter((url) => !url.startsWith(`${registry.url}/`))).toEqual([]);
      expect(existsSync(path.join(project, "node_modules/@xzatoma/example-notes-tools"))).toBe(
        true,
      );
    });

    it("runs the README's and the how-to's embedding programs", async () => {
      ollama = await startScriptedOllama({ scenario: OLLAMA_SCENARIOS["two-tools"]! });
      expect(await runProgram("readme.mjs", programIn("README.md", "## Embedding it"))).toBe(
        "completed README.md begins with: Embedded XZatoma works. (after 2 tool calls)\n",
      );
      await ollama.close();
      ollama = await startScriptedOllama({ scenario: OLLAMA_SCENARIOS["two-tools"]! });
      expect(
        await runProgram(
          "how-to.mjs",
          programIn("docs/how-to/embed-the-agent.md", "Then, in an ES module"),
        ),
      ).toBe("README.md begins with: Embedded XZatoma works. (after 2 tool calls)\n");
      await ollama.close();
    });

    it("runs the how-to's program with the notes tool package beside the built-in tools", async () => {
      ollama = await startScriptedOllama({
        scenario: (request) => {
          const tools = request.messages.filter((message) => message.role === "tool");
          if (tools.length === 0)
            return {
              toolCalls: [
                { name: "save_note", arguments: { title: "Standup", body: "Fixed the build." } },
              ],
            };
          if (tools.length === 1)
            return { toolCalls: [{ name: "search_notes", arguments: { query: "build" } }] };
          return { content: `Found: ${tools.at(-1)?.content ?? ""}` };
        },
      });
      const program = withNotesTools(
        programIn("docs/how-to/embed-the-agent.md", "Then, in an ES module"),
      );
      expect(await runProgram("notes.mjs", program)).toBe(
        "Found: standup.md: # Standup / Fixed the build.\n",
      );
      expect(await readFile(path.join(workspace, "notes", "standup.md"), "utf8")).toBe(
        "# Standup\n\nFixed the build.\n",
      );
      const offered = ollama.requests[0]?.tools?.map((tool) => tool.function.name) ?? [];
      expect(offered).toEqual(expect.arrayContaining(["read_file", "save_note", "search_notes"]));
    });
  });
});
