import { expect, it } from "vitest";
import { SLASH_HELP } from "./slash-command.js";
import { filterSlashMenu, renderSlashMenu, slashMenuEntries } from "./slash-menu.js";

const entries = slashMenuEntries(SLASH_HELP);

it("offers every command of the help, once, with its one-line help", () => {
  const names = entries.map((entry) => entry.name);
  expect(names).toEqual(
    expect.arrayContaining(["/mode", "/approvals", "/context", "/model", "/help"]),
  );
  expect(new Set(names).size).toBe(names.length);
  expect(entries.find((entry) => entry.name === "/model")).toEqual({
    name: "/model",
    usage: "NAME",
    help: "switch model, keeping the conversation",
  });
  expect(entries.find((entry) => entry.name === "/status")?.usage).toBe("");
});

it("narrows as a command is typed, names that start with it first", () => {
  expect(filterSlashMenu(entries, "/")?.length).toBe(entries.length);
  expect(filterSlashMenu(entries, "/mo")?.map((entry) => entry.name)).toEqual([
    "/mode",
    "/models",
    "/model",
  ]);
  const context = filterSlashMenu(entries, "/con")?.map((entry) => entry.name);
  expect(context?.[0]).toBe("/context");
  expect(filterSlashMenu(entries, "/zzz")).toEqual([]);
  // Typed in full, a name comes before the longer names it starts.
  expect(filterSlashMenu(entries, "/model")?.map((entry) => entry.name)).toEqual([
    "/model",
    "/models",
  ]);
});

it("is closed for a message and once an argument is typed", () => {
  expect(filterSlashMenu(entries, "hello")).toBeUndefined();
  expect(filterSlashMenu(entries, "/mode ")).toBeUndefined();
  expect(filterSlashMenu(entries, "/mode\nx")).toBeUndefined();
});

it("draws the entries around the chosen one, its help cut to the width", () => {
  const matches = filterSlashMenu(entries, "/") ?? [];
  const lines = renderSlashMenu(matches, {
    selected: 9,
    rows: 4,
    columns: 40,
    dim: (text) => text,
    inverse: (text) => `[${text}]`,
  });
  expect(lines).toHaveLength(4);
  expect(lines[3]).toMatch(/^\[› \/\S+/);
  for (const line of lines) expect(line.replace(/^\[|\]$/g, "").length).toBeLessThanOrEqual(38);
  expect(lines.join("\n")).toContain("…");
});
