import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { parsePlan, parsePlanText, planFormatOf } from "./parse-plan.js";
import { PlanError } from "./plan-error.js";
import { planToPrompt } from "./plan-prompt.js";
import { createPlanProgress } from "./plan-progress.js";

const fixture = (name: string) =>
  readFileSync(new URL(`../__fixtures__/plans/${name}`, import.meta.url), "utf8");
const load = (name: string) => parsePlan(fixture(name), name);

function failure(name: string): string {
  try {
    load(name);
  } catch (error) {
    if (error instanceof PlanError) return error.message;
    throw error;
  }
  throw new Error(`${name} was accepted`);
}

describe("plans in the original's steps shape, in every format", () => {
  it.each(["simple_plan.yaml", "simple_plan.json", "simple_plan.md"])("reads %s", (name) => {
    const plan = load(name);
    expect(plan.shape).toBe("steps");
    expect(plan.instructions).toHaveLength(1);
    expect(plan.instructions[0]).toMatchObject({
      number: 1,
      title: "Echo Hello",
      text: "Print a greeting message",
      context: "echo hello",
    });
  });

  it.each(["multi_step_plan.yaml", "multi_step_plan.json", "multi_step_plan.md"])(
    "reads %s with three steps",
    (name) => {
      const plan = load(name);
      expect(plan.instructions.map((instruction) => instruction.context)).toEqual([
        "ls -la",
        "df -h",
        "uptime",
      ]);
    },
  );
});

describe("invalid plans name the file and the field", () => {
  it.each([
    ["empty_file.yaml", "empty_file.yaml: the plan file is empty."],
    ["invalid_no_name.yaml", "invalid_no_name.yaml: name: must not be empty"],
    ["invalid_no_steps.yaml", "invalid_no_steps.yaml: steps: must have at least one step"],
    ["invalid_no_steps.json", "invalid_no_steps.json: steps: must have at least one step"],
    ["invalid_no_steps.md", "invalid_no_steps.md: steps: must have at least one step"],
    [
      "invalid_step_no_action.yaml",
      "invalid_step_no_action.yaml: steps[0].action: must not be empty",
    ],
    [
      "unknown_extension.txt",
      "unknown_extension.txt: unsupported plan format '.txt'; use .yaml, .yml, .json or .md.",
    ],
  ])("%s", (name, message) => {
    expect(failure(name)).toBe(message);
  });

  it("reports malformed YAML and JSON as parse errors", () => {
    expect(failure("malformed_yaml.yaml")).toMatch(/^malformed_yaml\.yaml: not valid YAML: /);
    expect(failure("malformed_json.json")).toMatch(/^malformed_json\.json: not valid JSON: /);
  });

  it("refuses a repeated key, naming it and its line", () => {
    const text = "name: first\nsteps:\n  - name: a\n    action: b\nname: second\n";
    expect(() => parsePlan(text, "twice.yaml")).toThrow(
      "twice.yaml: not valid YAML: Map keys must be unique: 'name' is repeated at line 5, column 1",
    );
  });

  it("reads a plan with tens of thousands of keys in linear time", () => {
    // The yaml package's own unique-key check compares every pair: 50,000 keys took 26 s.
    const extra = Array.from({ length: 80_000 }, (_, index) => `  k${index}: ${index}`).join("\n");
    const text = `name: big\nsteps:\n  - name: a\n    action: b\nextra:\n${extra}\n`;
    expect(parsePlan(text, "big.yaml").instructions).toHaveLength(1);
    const repeated = `${text}  k7: again\n`;
    expect(() => parsePlan(repeated, "big.yaml")).toThrow("'k7' is repeated");
  });

  it("requires a file extension", () => {
    expect(() => planFormatOf("plan")).toThrow(
      "plan: the plan file has no extension; name it .yaml, .yml, .json or .md.",
    );
  });
});

describe("the seeds' goal shape and the XZepr task list", () => {
  it("reads goal, context and instructions from YAML and Markdown", () => {
    const yaml = parsePlan(
      'goal: "Generate API documentation"\ncontext:\n  directory: "src/api/"\ninstructions:\n  - List all API endpoint files\n  - Extract function signatures\n  - Create OpenAPI spec\n',
      "docs.yaml",
    );
    expect(yaml).toMatchObject({
      shape: "goal-instructions",
      goal: "Generate API documentation",
      context: ["directory: src/api/"],
    });
    expect(planToPrompt(yaml)).toBe(
      [
        "You are assisting with the following task:",
        "",
        "GOAL: Generate API documentation",
        "",
        "CONTEXT:",
        "- directory: src/api/",
        "",
        "INSTRUCTIONS (follow as guidance):",
        "1. List all API endpoint files",
        "2. Extract function signatures",
        "3. Create OpenAPI spec",
        "",
        "Use the available tools to accomplish this goal. You may adapt your approach as needed, but try to follow the instructions provided.",
      ].join("\n"),
    );
    const markdown = parsePlan(
      "# Task: Generate Project Documentation\n\n## Goal\n\nCreate comprehensive documentation\n\n## Context\n\n- Repository: /path/to/project\n\n## Steps\n\n1. Scan repository structure\n2. Read main source files\n",
      "docs.md",
    );
    expect(markdown).toMatchObject({
      name: "Generate Project Documentation",
      goal: "Create comprehensive documentation",
      context: ["Repository: /path/to/project"],
    });
    expect(markdown.instructions.map((instruction) => instruction.text)).toEqual([
      "Scan repository structure",
      "Read main source files",
    ]);
    expect(() => parsePlan("goal: x\ninstructions: []\n", "g.yaml")).toThrow(
      "g.yaml: instructions: must list at least one instruction",
    );
  });

  it("takes instructions written as one text: a list is one instruction per item, prose is one", () => {
    const texts = (yaml: string) =>
      parsePlan(yaml, "p.yaml").instructions.map((instruction) => instruction.text);
    expect(texts("goal: Release\ninstructions: Run the tests and fix what fails\n")).toEqual([
      "Run the tests and fix what fails",
    ]);
    expect(
      texts("goal: Release\ninstructions: |\n  1. Run the tests\n  2. Update CHANGELOG.md\n"),
    ).toEqual(["Run the tests", "Update CHANGELOG.md"]);
    expect(
      texts(
        "goal: Release\ninstructions: |\n  Read the changes since the last tag\n  and write release notes.\n",
      ),
    ).toEqual(["Read the changes since the last tag\nand write release notes."]);
    expect(() => parsePlan("goal: x\ninstructions: 3\n", "g.yaml")).toThrow(
      "g.yaml: instructions: must be a list of instructions or a text",
    );
    expect(() => parsePlan('goal: x\ninstructions: "  "\n', "g.yaml")).toThrow(
      "g.yaml: instructions: must list at least one instruction",
    );
    expect(() => parsePlan("instructions: [a]\n", "g.yaml")).toThrow("g.yaml: goal: is required");
  });

  it("reads the task list of an XZepr event with dependencies and limits", () => {
    const plan = parsePlanText(fixture("task_list_plan.json"), "event 01JXZEPR0BUILD0DEMO000001");
    expect(plan).toMatchObject({
      shape: "task-list",
      name: "build-verify",
      maxTurns: 5,
      allowDangerous: false,
    });
    expect(plan.instructions[1]?.dependsOn).toEqual(["01JXZEPR0BUILD0TASK000001"]);
    expect(planToPrompt(plan)).toContain("2. Write a brief build verification report");
    expect(planToPrompt(plan)).toContain("(after 1)");
  });
});

describe("plan progress", () => {
  it("reports completed instructions", () => {
    const progress = createPlanProgress(load("multi_step_plan.yaml"));
    expect(progress.complete(1)).toBe(true);
    expect(progress.complete(9)).toBe(false);
    expect(progress.summary()).toBe(
      "Completed 1/3 instructions\n✓ Step One\n○ Step Two\n○ Step Three",
    );
  });
});
