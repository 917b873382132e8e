import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadSuite, SuiteInvalidError } from "./load-suite.js";

let directory: string;

beforeAll(async () => {
  directory = await mkdtemp(path.join(tmpdir(), "xz-load-suite-"));
});

afterAll(async () => {
  await rm(directory, { recursive: true, force: true });
});

async function suiteFile(name: string, text: string): Promise<string> {
  const file = path.join(directory, name);
  await writeFile(file, text);
  return file;
}

async function problemsOf(file: string): Promise<string> {
  const error = await loadSuite(file).then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(SuiteInvalidError);
  return (error as SuiteInvalidError).message;
}

describe("loadSuite", () => {
  it("reads a suite and fills the defaults", async () => {
    const suite = await loadSuite(
      await suiteFile(
        "good.yaml",
        'name: demo\ncases:\n  - id: makes-hello\n    prompt: "Create hello.txt saying hi."\n    expect: { files: { hello.txt: { contains: hi } } }\n',
      ),
    );
    expect(suite.cases[0]).toMatchObject({
      id: "makes-hello",
      mode: "write",
      subagents: false,
      workspace: {},
      limits: {},
      expect: { files: { "hello.txt": { contains: "hi" } } },
    });
  });

  it("names the file, the case and the field of a wrong value", async () => {
    const file = await suiteFile(
      "bad-field.yaml",
      "name: demo\ncases:\n  - id: first\n    prompt: ok\n  - id: makes-hello\n    prompt: hi\n    expect: { files: { hello.txt: { contains: 3 } } }\n",
    );
    const message = await problemsOf(file);
    expect(message).toContain(file);
    expect(message).toContain("case 'makes-hello', field expect.files.hello.txt.contains:");
  });

  it("names an unknown key, a case without an id by its position, and a path leaving the workspace", async () => {
    const message = await problemsOf(
      await suiteFile(
        "bad-keys.yaml",
        "name: demo\ncases:\n  - prompt: no id\n  - id: escapes\n    prompt: x\n    workspace: { ../outside.txt: x }\n    limts: { max_turns: 2 }\n",
      ),
    );
    expect(message).toContain("case #1, field id:");
    expect(message).toContain("case 'escapes', field workspace.../outside.txt:");
    expect(message).toContain("case 'escapes', field (the case): Unrecognized key: \"limts\"");
  });

  it("refuses two cases with one id, a regular expression that does not compile, and text that is not YAML", async () => {
    expect(
      await problemsOf(
        await suiteFile(
          "twice.yaml",
          "name: demo\ncases:\n  - { id: same, prompt: a }\n  - { id: same, prompt: b }\n",
        ),
      ),
    ).toContain("case 'same', field id: is used by an earlier case");
    expect(
      await problemsOf(
        await suiteFile(
          "regex.yaml",
          "name: demo\ncases:\n  - { id: r, prompt: a, expect: { answer: { matches: '(' } } }\n",
        ),
      ),
    ).toContain("case 'r', field expect.answer.matches: is not a valid regular expression");
    expect(await problemsOf(await suiteFile("broken.yaml", "name: [unclosed\n"))).toContain(
      "not YAML",
    );
  });
});

describe("the shipped suites", () => {
  const shipped = (name: string) =>
    fileURLToPath(new URL(`../../../../evals/${name}`, import.meta.url));

  it("evals/agentic.yaml holds at least 30 cases, each checked by an effect", async () => {
    const suite = await loadSuite(shipped("agentic.yaml"));
    expect(suite.cases.length).toBeGreaterThanOrEqual(30);
    for (const item of suite.cases) {
      const { files, answer, tools } = item.expect;
      expect({ id: item.id, checked: Boolean(files ?? answer ?? tools) }).toEqual({
        id: item.id,
        checked: true,
      });
    }
    expect(suite.cases.filter((item) => item.subagents).length).toBeGreaterThanOrEqual(2);
    expect(suite.cases.filter((item) => item.mode === "planning").length).toBeGreaterThanOrEqual(2);
  });

  it("evals/smoke.yaml is a valid suite whose every case scripts its model", async () => {
    const suite = await loadSuite(shipped("smoke.yaml"));
    for (const item of suite.cases)
      expect({ id: item.id, scripted: Array.isArray(item.scripted) }).toEqual({
        id: item.id,
        scripted: true,
      });
  });
});
