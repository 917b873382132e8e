import { mkdir, mkdtemp, rm, symlink, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { discoverSkills } from "./discover-skills.js";

let base: string;
let home: string;
let repo: string;
let workspace: string;

async function skill(root: string, name: string, description: string, body = "Steps.") {
  await mkdir(path.join(root, name), { recursive: true });
  await writeFile(
    path.join(root, name, "SKILL.md"),
    `---\nname: ${name}\ndescription: ${description}\n---\n${body}\n`,
  );
}

beforeEach(async () => {
  base = await mkdtemp(path.join(os.tmpdir(), "xz-skills-"));
  home = path.join(base, "home");
  repo = path.join(base, "repo");
  workspace = path.join(repo, "packages", "app");
  await mkdir(path.join(repo, ".git"), { recursive: true });
  await mkdir(workspace, { recursive: true });
  await mkdir(home, { recursive: true });
});
afterEach(async () => {
  await rm(base, { recursive: true, force: true });
});

describe("discoverSkills", () => {
  it("finds skills in every user and project root, up to the repository root", async () => {
    await skill(path.join(home, ".xzatoma", "skills"), "alpha", "From the user's XZatoma root.");
    await skill(path.join(home, ".agents", "skills"), "beta", "From the user's agents root.");
    await skill(path.join(repo, ".claude", "skills"), "gamma", "From the repository root.");
    await skill(path.join(workspace, ".agents", "skills"), "delta", "From the workspace.");
    await skill(path.join(base, ".xzatoma", "skills"), "outside", "Above the repository.");

    const found = discoverSkills({ workspace, homeDir: home });

    expect(found.problems).toEqual([]);
    expect(found.skills.map((s) => [s.name, s.scope])).toEqual([
      ["alpha", "user"],
      ["beta", "user"],
      ["delta", "project"],
      ["gamma", "project"],
    ]);
  });

  it("lets the user's skill shadow a project's, and a nearer project directory its parent", async () => {
    await skill(path.join(home, ".xzatoma", "skills"), "release", "The user's release steps.");
    await skill(path.join(workspace, ".xzatoma", "skills"), "release", "The project's release.");
    await skill(path.join(workspace, ".xzatoma", "skills"), "lint", "The workspace's lint.");
    await skill(path.join(repo, ".xzatoma", "skills"), "lint", "The repository's lint.");

    const found = discoverSkills({ workspace, homeDir: home });

    expect(found.skills.map((s) => s.description)).toEqual([
      "The workspace's lint.",
      "The user's release steps.",
    ]);
    expect(found.shadowed.map((s) => s.description).sort()).toEqual([
      "The project's release.",
      "The repository's lint.",
    ]);
  });

  it("names the file and the field of an invalid skill", async () => {
    const root = path.join(workspace, ".xzatoma", "skills");
    await skill(root, "good", "Fine.");
    await mkdir(path.join(root, "nameless"), { recursive: true });
    await writeFile(path.join(root, "nameless", "SKILL.md"), "---\ndescription: x\n---\nbody\n");
    await skill(root, "wrong-dir", "Mismatch.");
    await writeFile(
      path.join(root, "wrong-dir", "SKILL.md"),
      "---\nname: other\ndescription: x\n---\n",
    );
    await mkdir(path.join(root, "bare"), { recursive: true });
    await writeFile(path.join(root, "bare", "SKILL.md"), "# no front matter\n");
    await mkdir(path.join(root, "undescribed"), { recursive: true });
    await writeFile(path.join(root, "undescribed", "SKILL.md"), "---\nname: undescribed\n---\n");

    const found = discoverSkills({ workspace, homeDir: home });

    expect(found.skills.map((s) => s.name)).toEqual(["good"]);
    const problems = found.problems.map((p) => [path.basename(path.dirname(p.file)), p.field]);
    expect(problems.sort()).toEqual([
      ["bare", "front matter"],
      ["nameless", "name"],
      ["undescribed", "description"],
      ["wrong-dir", "name"],
    ]);
    expect(found.problems.find((p) => p.file.includes("wrong-dir"))?.message).toContain(
      "must equal the skill's directory name 'wrong-dir'",
    );
  });

  it("refuses a project skill that links outside the project", async () => {
    const secret = path.join(base, "secret");
    await mkdir(secret);
    await writeFile(path.join(secret, "SKILL.md"), "---\nname: leak\ndescription: x\n---\nkey\n");
    const root = path.join(workspace, ".xzatoma", "skills", "leak");
    await mkdir(root, { recursive: true });
    await symlink(path.join(secret, "SKILL.md"), path.join(root, "SKILL.md"));

    const found = discoverSkills({ workspace, homeDir: home });

    expect(found.skills).toEqual([]);
    expect(found.problems[0]).toMatchObject({ field: "file" });
    expect(found.problems[0]?.message).toContain("outside the project");
  });

  it("without a repository, the workspace alone is the project", async () => {
    await rm(path.join(repo, ".git"), { recursive: true });
    await skill(path.join(repo, ".xzatoma", "skills"), "parent", "Not a project root.");
    await skill(path.join(workspace, ".xzatoma", "skills"), "own", "The workspace's.");

    expect(discoverSkills({ workspace, homeDir: home }).skills.map((s) => s.name)).toEqual(["own"]);
  });
});
