import type { CommandVerdict } from "./types.js";

/** How bad one finding is. */
export type Severity = "confirm" | "block";

/** One reason the command is not plain (`confirm`) or must never run (`block`). */
export interface Finding {
  readonly severity: Severity;
  readonly reason: string;
}

/** How a program uses a path argument. */
export type PathAccess = "read" | "write";

/** A path argument to check against the workspace once the syntax walk is done. */
export interface PathRequest {
  /** The path as the program will see it (a best guess when computed). */
  readonly path: string;
  /** The argument as written, for the reason. */
  readonly shown: string;
  readonly access: PathAccess;
  /** The program (or redirect) that uses it, for the reason. */
  readonly program: string;
  /** False when the path was computed (expansion, substitution, glob): then only its escapes matter. */
  readonly exact: boolean;
  /** The verdict when the path leaves the workspace. */
  readonly outside: Severity;
  /** Every file below the path is read (`grep -r`): secrets and hard links below count too. */
  readonly recursive?: boolean;
  /** The verdict when the path holds secrets (default `confirm`; `block` when it is sent on). */
  readonly secret?: Severity;
}

/** Collects findings, path checks and programs while a command is analysed. */
export class Findings {
  readonly items: Finding[] = [];
  readonly paths: PathRequest[] = [];
  readonly programs: string[] = [];
  /** A path the command reads looks secret or may be outside (a hard link). */
  sensitive = false;
  /**
   * Part of the command was not analysed (a parse error, the parse deadline, a length or
   * nesting cap, a working directory that does not resolve): nobody knows what it reads.
   */
  unanalysed = false;

  block(reason: string): void {
    this.items.push({ severity: "block", reason });
  }

  confirm(reason: string): void {
    this.items.push({ severity: "confirm", reason });
  }

  /** A confirm for text that could not be analysed: only a person may let it run. */
  incomplete(reason: string): void {
    this.confirm(reason);
    this.unanalysed = true;
  }

  path(request: PathRequest): void {
    this.paths.push(request);
  }

  program(name: string): void {
    if (name !== "" && !this.programs.includes(name)) this.programs.push(name);
  }

  get blocked(): boolean {
    return this.items.some((item) => item.severity === "block");
  }

  /**
   * Takes over `other`: everything, or (`blocksOnly`) its blocks and path checks with
   * `note` as the one confirm that stands for the rest. Programs are taken unless
   * `programs` is false (candidates tried for a computed name are not programs found).
   */
  merge(
    other: Findings,
    options: { blocksOnly?: boolean; note?: string; programs?: boolean } = {},
  ): void {
    if (options.note !== undefined) this.confirm(options.note);
    for (const item of other.items)
      if (options.blocksOnly !== true || item.severity === "block") this.items.push(item);
    this.paths.push(...other.paths);
    if (other.unanalysed) this.unanalysed = true;
    if (options.programs !== false) for (const name of other.programs) this.program(name);
  }

  /** The verdict and reason these findings add up to; `allow` with `allowReason` when empty. */
  decide(allowReason: string): { verdict: CommandVerdict; reason: string } {
    const block = this.items.find((item) => item.severity === "block");
    if (block !== undefined) return { verdict: "block", reason: block.reason };
    const confirm = this.items[0];
    if (confirm !== undefined) return { verdict: "confirm", reason: confirm.reason };
    return { verdict: "allow", reason: allowReason };
  }
}
