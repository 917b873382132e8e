import type { Arg } from "./context.js";

/** The options a program understands, getopt style. */
export interface OptionTable {
  /** Short options without a value; undefined means every letter is accepted. */
  readonly shortFlag?: string;
  /** Short options that take a value (`-n 5`, `-n5`). */
  readonly shortValue?: string;
  /** Long options without a value (they may still carry `=value`). */
  readonly longFlag?: readonly string[];
  /** Long options that take a value (`--lines 5`, `--lines=5`). */
  readonly longValue?: readonly string[];
  /** Options end at the first operand (wrappers, `find`, POSIX utilities). */
  readonly stopAtOperand?: boolean;
  /**
   * `-NUM` is an option (`head -20`, `nice -5`). Letters after the digits are options of
   * their own, as getopt reads them (`grep -5r` is `-5 -r`), except `numericUnits`.
   */
  readonly numeric?: boolean;
  /**
   * A unique prefix of a long option stands for it (`--lin` for `--lines`), as getopt_long
   * reads it. Off for readers: a prefix unique among the options a spec lists may be another
   * option of the program (`rg --pre` is not `--pretty`), so it counts as unknown.
   */
  readonly abbreviations?: boolean;
  /** Letters that belong to the number after `-NUM` (`head -5c`: five bytes). */
  readonly numericUnits?: string;
}

/** One option as given. */
export interface ParsedOption {
  /** `-n` or `--lines`; a long option is spelled out in full when its prefix was unique. */
  readonly name: string;
  readonly value: Arg | null;
  /** The table lists it. */
  readonly known: boolean;
  /** The argument that spelled it. */
  readonly arg: Arg;
}

/** Options and operands of one argv (without the program name). */
export interface ParsedArgs {
  readonly options: readonly ParsedOption[];
  readonly operands: readonly Arg[];
}

function slice(arg: Arg, value: string): Arg {
  return { ...arg, value };
}

/** Resolves a long option name, GNU style: exact, or a unique prefix of a known one. */
function resolveLong(name: string, table: OptionTable): string | null {
  const all = [...(table.longFlag ?? []), ...(table.longValue ?? [])];
  if (all.includes(name)) return name;
  if (table.abbreviations !== true) return null;
  const candidates = all.filter((candidate) => candidate.startsWith(name));
  return candidates.length === 1 ? (candidates[0] ?? null) : null;
}

/** Splits `args` into options and operands by `table`. Values are taken like getopt_long does. */
export function parseOptions(args: readonly Arg[], table: OptionTable): ParsedArgs {
  const options: ParsedOption[] = [];
  const operands: Arg[] = [];
  let ended = false;
  let i = 0;
  for (; i < args.length; i++) {
    const arg = args[i];
    if (arg === undefined) break;
    const text = arg.value;
    if (ended || text === "-" || !text.startsWith("-")) {
      if (table.stopAtOperand === true) break;
      operands.push(arg);
      continue;
    }
    if (text === "--") {
      ended = true;
      if (table.stopAtOperand === true) {
        i += 1;
        break;
      }
      continue;
    }
    if (text.startsWith("--")) {
      const equals = text.indexOf("=");
      const given = equals === -1 ? text.slice(2) : text.slice(2, equals);
      const resolved = resolveLong(given, table);
      let value: Arg | null = equals === -1 ? null : slice(arg, text.slice(equals + 1));
      if (value === null && resolved !== null && (table.longValue ?? []).includes(resolved)) {
        value = args[i + 1] ?? null;
        i += 1;
      }
      options.push({ name: `--${resolved ?? given}`, value, known: resolved !== null, arg });
      continue;
    }
    let j = 1;
    const digits = table.numeric === true ? /^-(\d+)/.exec(text) : null;
    if (digits !== null) {
      const number = digits[1] ?? "";
      options.push({ name: "-NUM", value: slice(arg, number), known: true, arg });
      j += number.length;
      while (j < text.length && (table.numericUnits ?? "").includes(text.charAt(j))) j++;
    }
    for (; j < text.length; j++) {
      const letter = text.charAt(j);
      if ((table.shortValue ?? "").includes(letter)) {
        const attached = text.slice(j + 1);
        const value = attached !== "" ? slice(arg, attached) : (args[i + 1] ?? null);
        if (attached === "") i += 1;
        options.push({ name: `-${letter}`, value, known: true, arg });
        break;
      }
      const known = table.shortFlag === undefined || table.shortFlag.includes(letter);
      options.push({ name: `-${letter}`, value: null, known, arg });
    }
  }
  if (table.stopAtOperand === true) operands.push(...args.slice(i));
  return { options, operands };
}

/** Whether any of `names` was given. */
export function hasOption(parsed: ParsedArgs, ...names: readonly string[]): boolean {
  return parsed.options.some((option) => names.includes(option.name));
}

/** The values given to any of `names`. */
export function optionValues(parsed: ParsedArgs, ...names: readonly string[]): Arg[] {
  return parsed.options.flatMap((option) =>
    names.includes(option.name) && option.value !== null ? [option.value] : [],
  );
}
