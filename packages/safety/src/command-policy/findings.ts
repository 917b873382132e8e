import type { EscalationKind } from "./types.js";

/**
 * How far one finding moves a command from running directly: `sandbox` (not provably
 * read-only: it runs inside the sandbox), `escalate` (it needs something the sandbox does
 * not give: a person decides), `forbidden` (a forbidden rule matched: it never runs).
 */
export type Severity = "sandbox" | "escalate" | "forbidden";

/** One reason a command does not run directly. */
export interface Finding {
  readonly severity: Severity;
  readonly reason: string;
  /** What the command needs, for an escalation. */
  readonly kind?: EscalationKind;
}

/** How a program uses a path argument: `list` reads names and metadata only, not contents. */
export type PathAccess = "read" | "write" | "list";

/** A path argument to check against the workspace once the syntax walk is done. */
export interface PathRequest {
  /** The path as the program will see it. */
  readonly path: string;
  /** The argument as written, for the reason. */
  readonly shown: string;
  readonly access: PathAccess;
  /** The program (or redirect) that uses it, for the reason. */
  readonly program: string;
  /** Every file below the path is read (`grep -r`): secrets and hard links below count too. */
  readonly recursive: boolean;
}

/** `reason`, ended with `; outcome.` unless it already ends a sentence. */
const sentence = (reason: string, outcome: string): string =>
  reason.endsWith(".") ? reason : `${reason}; ${outcome}.`;

const RANK: Readonly<Record<Severity, number>> = { sandbox: 1, escalate: 2, forbidden: 3 };

/** Collects findings, path checks and programs while a command is analysed. */
export class Findings {
  readonly items: Finding[] = [];
  readonly paths: PathRequest[] = [];
  readonly programs: string[] = [];

  /** The command is not provably read-only: it runs in the sandbox (said after `reason` unless it ends in `.`). */
  confirm(reason: string): void {
    this.items.push({ severity: "sandbox", reason: sentence(reason, "it runs in the sandbox") });
  }

  /** The command needs what the sandbox does not give (`kind`): a person decides (said likewise). */
  escalate(kind: EscalationKind, reason: string): void {
    this.items.push({ severity: "escalate", reason: sentence(reason, "a person decides"), kind });
  }

  /** A forbidden rule matched: it never runs. */
  forbid(reason: string): void {
    this.items.push({ severity: "forbidden", reason });
  }

  /** Text that could not be analysed: nobody knows what it does, so a person decides. */
  incomplete(reason: string): void {
    this.escalate("unanalysed", reason);
  }

  path(request: PathRequest): void {
    this.paths.push(request);
  }

  program(name: string): void {
    if (name !== "" && !this.programs.includes(name)) this.programs.push(name);
  }

  /** Takes over everything `other` found. */
  merge(other: Findings): void {
    this.items.push(...other.items);
    this.paths.push(...other.paths);
    for (const name of other.programs) this.program(name);
  }

  /** The worst finding, or undefined when there is none (the command runs directly). */
  worst(): Finding | undefined {
    let worst: Finding | undefined;
    for (const item of this.items)
      if (worst === undefined || RANK[item.severity] > RANK[worst.severity]) worst = item;
    return worst;
  }
}
