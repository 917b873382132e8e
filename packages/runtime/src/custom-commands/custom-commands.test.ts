import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { openTrustStore } from "../skills/skill-trust.js";
import type { CustomCommand } from "./command-file.js";
import { discoverCommands } from "./discover-commands.js";
import { expandCommand, parseInvocation } from "./expand-command.js";

let base: string;
let home: string;
let workspace: string;
let dataDir: string;

async function put(file: string, text: string) {
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, text);
}

beforeEach(async () => {
  base = await mkdtemp(path.join(os.tmpdir(), "xz-commands-"));
  home = path.join(base, "home");
  workspace = path.join(base, "repo");
  dataDir = path.join(base, "data");
  await mkdir(path.join(workspace, ".git"), { recursive: true });
});
afterEach(async () => {
  await rm(base, { recursive: true, force: true });
});

describe("discoverCommands", () => {
  it("names commands by their path, folders as namespaces, the user's winning", async () => {
    await put(path.join(home, ".xzatoma", "commands", "review.md"), "Review $ARGUMENTS");
    await put(path.join(home, ".xzatoma", "commands", "git", "fix.md"), "Fix $1");
    await put(path.join(workspace, ".xzatoma", "commands", "review.md"), "Project review");
    await put(
      path.join(workspace, ".xzatoma", "commands", "ship.md"),
      "---\ndescription: Ship it\nmodel: big-1\nallowed-tools: [terminal]\n---\nShip $1 now\n",
    );

    const found = discoverCommands({ workspace, homeDir: home, dataDir });

    expect(found.commands.map((c) => [c.name, c.scope])).toEqual([
      ["git:fix", "user"],
      ["review", "user"],
      ["ship", "project"],
    ]);
    expect(found.shadowed.map((c) => c.template)).toEqual(["Project review"]);
    expect(found.commands.find((c) => c.name === "ship")).toMatchObject({
      description: "Ship it",
      model: "big-1",
      allowedTools: ["terminal"],
    });
    // A project command is not offered until a person trusts it.
    expect(found.offered.map((c) => c.name)).toEqual(["git:fix", "review"]);
    const ship = found.commands.find((c) => c.name === "ship");
    openTrustStore(dataDir).trust(ship!);
    expect(
      discoverCommands({ workspace, homeDir: home, dataDir }).offered.map((c) => c.name),
    ).toContain("ship");
  });

  it("names the file and field of an invalid command", async () => {
    await put(path.join(home, ".xzatoma", "commands", "bad.md"), "---\nmodel: 3\n---\nHi\n");
    await put(path.join(home, ".xzatoma", "commands", "empty.md"), "---\ndescription: x\n---\n");
    const found = discoverCommands({ workspace, homeDir: home, dataDir });
    expect(found.problems.map((p) => [path.basename(p.file), p.field]).sort()).toEqual([
      ["bad.md", "model"],
      ["empty.md", "file"],
    ]);
  });
});

describe("expanding a command", () => {
  const command = (template: string): CustomCommand => ({
    name: "c",
    description: "",
    template,
    file: "/c.md",
    scope: "user",
    sha256: "",
  });

  it("puts in $ARGUMENTS and the positional words, quotes grouping them", () => {
    expect(
      expandCommand(command("Review $1 for $2. All: $ARGUMENTS. Missing: [$3]"), 'a.ts "be brief"'),
    ).toBe('Review a.ts for be brief. All: a.ts "be brief". Missing: []');
  });

  it("appends the arguments to a template that uses none", () => {
    expect(expandCommand(command("Summarise."), "the README")).toBe("Summarise.\n\nthe README");
  });

  it("recognises /name args at the start of a prompt only", () => {
    expect(parseInvocation("/git:fix  issue 4")).toEqual({ name: "git:fix", args: "issue 4" });
    expect(parseInvocation("/review")).toEqual({ name: "review", args: "" });
    expect(parseInvocation("explain /etc/hosts")).toBeUndefined();
  });
});
