import { describe, expect, it } from "vitest";
import { yaml } from "../config-loader/yaml.js";
import { parseFrontMatter } from "./front-matter.js";

describe("parseFrontMatter", () => {
  const same = [
    "name: release\ndescription: Cut a release of the project, then tag it.",
    "name: a\nallowed-tools: [read_file, grep]",
    "description: 'quoted: with colon'\nname: \"x\"",
    "# comment\nname: x\n\ndescription: y",
    "model: 3",
    "description: true",
    "description: a: b",
    "description: text # comment",
    "description: |\n  block\n  text",
    "allowed-tools:\n  - read_file\n  - grep",
    "name: x\nname: y",
    "description: -starts with dash",
  ];
  it.each(same)("reads %j as the yaml package does", (text) => {
    let expected: unknown;
    try {
      expected = yaml().parse(text);
    } catch (error) {
      expected = error;
    }
    if (expected instanceof Error) expect(() => parseFrontMatter(text)).toThrow();
    else expect(parseFrontMatter(text)).toEqual(expected);
  });
});
