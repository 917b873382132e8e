// A real temporary workspace for the file tool tests, with the places an escape would
// reach: a directory outside, a sibling sharing the root's name prefix, outward symlinks.
import { mkdir, mkdtemp, realpath, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import {
  createToolRegistry,
  type ApprovalRequest,
  type ToolAssessment,
  type ToolResult,
} from "@xzatoma/core";
import { createFileTools, type FileToolsOptions } from "./file-tools.js";
import { createWorkspaceContext } from "./workspace-context.js";

/** A temporary workspace and ways to call the file tools in it. */
export interface TestWorkspace {
  /** The temporary directory holding everything below. */
  readonly base: string;
  /** The workspace root: `<base>/ws`. */
  readonly root: string;
  /** `<base>/outside/secret.txt` holds "top secret". */
  readonly outside: string;
  /** `<base>/ws-sibling/x.txt`: shares the root's name as a prefix. */
  readonly sibling: string;
  /** Approval requests seen by {@link TestWorkspace.call}. */
  readonly approvals: ApprovalRequest[];
  /**
   * Runs a tool through a real registry that approves whatever it is asked; `onApprove`
   * runs inside the approval, between the tool's judgement and its execution.
   */
  call(
    name: string,
    input: Record<string, unknown>,
    onApprove?: () => Promise<void>,
  ): Promise<ToolResult>;
  /** The tool's own judgement of a call (input parsed by its schema first). */
  assess(name: string, input: Record<string, unknown>): Promise<ToolAssessment>;
  /** `<root>/<relative>`. */
  at(relative: string): string;
  write(relative: string, content: string | Buffer): Promise<void>;
  cleanup(): Promise<void>;
}

/** Path arguments that must be refused by every tool taking a path. */
export function escapingPaths(workspace: TestWorkspace): Record<string, string> {
  return {
    "parent traversal": "../outside/secret.txt",
    "absolute outside": path.join(workspace.outside, "secret.txt"),
    "symlink to an outside directory": "link-out/secret.txt",
    "symlink to an outside file": "file-link-out",
    "sibling sharing the name prefix": "../ws-sibling/x.txt",
    "absolute sibling sharing the name prefix": path.join(workspace.sibling, "x.txt"),
  };
}

/** Creates the workspace: `README.md`, `src/index.ts`, and outward symlinks. */
export async function createTestWorkspace(options: FileToolsOptions = {}): Promise<TestWorkspace> {
  const base = await realpath(await mkdtemp(path.join(tmpdir(), "xz-file-tools-")));
  const root = path.join(base, "ws");
  const outside = path.join(base, "outside");
  const sibling = path.join(base, "ws-sibling");
  await mkdir(path.join(root, "src"), { recursive: true });
  await mkdir(outside);
  await mkdir(sibling);
  await writeFile(path.join(outside, "secret.txt"), "top secret\n");
  await writeFile(path.join(sibling, "x.txt"), "sibling\n");
  await writeFile(path.join(root, "README.md"), "# Readme\n");
  await writeFile(path.join(root, "src", "index.ts"), "export const a = 1;\n");
  await symlink(outside, path.join(root, "link-out"));
  await symlink(path.join(outside, "secret.txt"), path.join(root, "file-link-out"));
  const workspace = createWorkspaceContext({ root });
  const tools = createFileTools(workspace, options);
  const registry = createToolRegistry();
  for (const tool of tools) registry.register(tool);
  const approvals: ApprovalRequest[] = [];
  const signal = new AbortController().signal;
  let calls = 0;
  return {
    base,
    root,
    outside,
    sibling,
    approvals,
    call: (name, input, onApprove) =>
      registry.execute(
        { toolCallId: String(++calls), toolName: name, input: JSON.stringify(input) },
        {
          signal,
          approve: async (request) => {
            approvals.push(request);
            await onApprove?.();
            return { approved: true };
          },
        },
      ),
    async assess(name, input) {
      const tool = tools.find((candidate) => candidate.name === name);
      if (!tool?.assess) throw new Error(`${name} has no assess`);
      return tool.assess((await tool.loadInputSchema()).parse(input));
    },
    at: (relative) => path.join(root, relative),
    async write(relative, content) {
      await mkdir(path.dirname(path.join(root, relative)), { recursive: true });
      await writeFile(path.join(root, relative), content);
    },
    cleanup: () => rm(base, { recursive: true, force: true }),
  };
}
