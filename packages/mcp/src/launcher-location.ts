import { accessSync, constants, realpathSync, statSync } from "node:fs";
import path from "node:path";

/** Where a stdio server would start: its program as given, its working directory and `PATH`. */
export interface LauncherLocation {
  readonly server: string;
  /** `command` after `${NAME}` expansion. */
  readonly command: string;
  /** The working directory after expansion. */
  readonly cwd: string;
  /** `args` after expansion. */
  readonly args: readonly string[];
  /** The `PATH` the program is looked up on (the server's own `env.PATH`, else XZatoma's). */
  readonly searchPath: string | undefined;
  /** The workspace root. */
  readonly workspace: string;
}

function real(target: string): string {
  try {
    return realpathSync(target);
  } catch {
    return path.resolve(target);
  }
}

function isInside(target: string, directory: string): boolean {
  const relative = path.relative(directory, target);
  return relative === "" || (!relative.startsWith("..") && !path.isAbsolute(relative));
}

function isExecutableFile(file: string): boolean {
  try {
    if (!statSync(file).isFile()) return false;
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/**
 * The file the operating system would run for `command`: a path is taken against `cwd`; a
 * bare name is the first executable file of that name on `searchPath`, whose empty and
 * relative entries are taken against `cwd` too. Undefined when nothing is found.
 */
export function programFile(
  command: string,
  cwd: string,
  searchPath: string | undefined,
): string | undefined {
  if (command.includes("/")) return path.resolve(cwd, command);
  for (const entry of (searchPath ?? "").split(path.delimiter)) {
    const candidate = path.resolve(cwd, entry, command);
    if (isExecutableFile(candidate)) return candidate;
  }
  return undefined;
}

/**
 * Throws when a stdio server would start from the workspace: its working directory is in
 * it (npx, `python -m` and relative paths resolve against the working directory), the
 * program it names (a path, or the first match on its `PATH`) is a file in it, or one of its
 * arguments names a file in it (a script for an interpreter). The
 * workspace's files are the model's to write, and a server runs as the user, outside the
 * sandbox, so XZatoma never starts one from there.
 */
export function checkLauncherLocation(location: LauncherLocation): void {
  const workspace = real(location.workspace);
  const cwd = real(location.cwd);
  const refuse = (what: string) => {
    throw new Error(
      `MCP server '${location.server}' is not started: ${what}, inside the workspace (${workspace}). XZatoma never starts a program from the workspace, whose files the model can write; install the server outside it and name the project with \${WORKSPACE} in its args.`,
    );
  };
  if (isInside(cwd, workspace)) refuse(`its working directory is ${cwd}`);
  const program = programFile(location.command, location.cwd, location.searchPath);
  if (program !== undefined && isInside(real(program), workspace))
    refuse(`its program '${location.command}' is ${real(program)}`);
  // A file handed to the program (`node script.js`, `python tool.py`, `--config=file`) may be
  // what it runs: XZatoma cannot tell a script from data, so no file of the workspace is
  // handed over. A directory is (the project a server works on, named with ${WORKSPACE}).
  for (const argument of location.args) {
    for (const candidate of [argument, argument.slice(argument.indexOf("=") + 1)]) {
      if (candidate === "") continue;
      const file = real(path.resolve(location.cwd, candidate));
      if (isInside(file, workspace) && isFile(file))
        refuse(`its argument '${argument}' is the file ${file}`);
    }
  }
}

function isFile(file: string): boolean {
  try {
    return statSync(file).isFile();
  } catch {
    return false;
  }
}
