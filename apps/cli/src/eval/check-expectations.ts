import { readFile } from "node:fs/promises";
import path from "node:path";
import type { EvalCase, FileExpectation } from "./suite-schema.js";

/** What a run left behind, as the checks read it. */
export interface RunEffect {
  /** The case's workspace after the run. */
  readonly workspace: string;
  /** The final answer. */
  readonly answer: string;
  /** Names of the tools called, in order (failed calls included). */
  readonly toolsCalled: readonly string[];
}

function quote(text: string): string {
  const shown = text.length > 60 ? `${text.slice(0, 57)}...` : text;
  return JSON.stringify(shown);
}

/** What is wrong with a file's content (`undefined`: no such file), or `undefined` when nothing is. */
export function fileProblem(
  relative: string,
  content: string | undefined,
  expected: FileExpectation,
): string | undefined {
  if (expected.absent) return content === undefined ? undefined : `${relative} exists`;
  if (content === undefined) return `${relative} does not exist`;
  if (expected.contains !== undefined && !content.includes(expected.contains))
    return `${relative} does not contain ${quote(expected.contains)}`;
  if (expected.equals !== undefined && content !== expected.equals)
    return `${relative} is not ${quote(expected.equals)} (it is ${quote(content)})`;
  if (expected.matches !== undefined && !new RegExp(expected.matches, "u").test(content))
    return `${relative} does not match /${expected.matches}/`;
  return undefined;
}

async function checkFile(
  root: string,
  relative: string,
  expected: FileExpectation,
): Promise<string | undefined> {
  let content: string | undefined;
  try {
    content = await readFile(path.join(root, relative), "utf8");
  } catch {
    content = undefined;
  }
  return fileProblem(relative, content, expected);
}

/**
 * True when the case cannot pass without a tool: it expects a tool called, or a file the
 * fresh workspace does not already satisfy (a file that must stay as it is needs no call).
 */
export function needsTool(evalCase: EvalCase): boolean {
  if ((evalCase.expect.tools?.called?.length ?? 0) > 0) return true;
  return Object.entries(evalCase.expect.files ?? {}).some(
    ([relative, expected]) =>
      fileProblem(relative, evalCase.workspace[relative], expected) !== undefined,
  );
}

/**
 * The case's expectations the run did not meet, each as a short clause; empty when it
 * met them all.
 */
export async function unmetExpectations(evalCase: EvalCase, effect: RunEffect): Promise<string[]> {
  const unmet: string[] = [];
  for (const [relative, expected] of Object.entries(evalCase.expect.files ?? {})) {
    const problem = await checkFile(effect.workspace, relative, expected);
    if (problem) unmet.push(problem);
  }
  const answer = evalCase.expect.answer;
  if (answer?.contains !== undefined && !effect.answer.includes(answer.contains))
    unmet.push(`the answer does not contain ${quote(answer.contains)}`);
  if (answer?.matches !== undefined && !new RegExp(answer.matches, "u").test(effect.answer))
    unmet.push(`the answer does not match /${answer.matches}/`);
  if (answer?.not_contains !== undefined && effect.answer.includes(answer.not_contains))
    unmet.push(`the answer contains ${quote(answer.not_contains)}`);
  const tools = evalCase.expect.tools;
  for (const name of tools?.called ?? [])
    if (!effect.toolsCalled.includes(name)) unmet.push(`${name} was not called`);
  for (const name of tools?.not_called ?? [])
    if (effect.toolsCalled.includes(name)) unmet.push(`${name} was called`);
  if (tools?.max_calls !== undefined && effect.toolsCalled.length > tools.max_calls)
    unmet.push(`${effect.toolsCalled.length} tool calls, more than ${tools.max_calls}`);
  return unmet;
}
