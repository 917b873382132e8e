import { literalArg, type Arg } from "./context.js";

const set = (names: string) => new Set(names.split(" "));
/** `find` primaries that take one argument. */
const ONE_ARGUMENT = set(
  "-name -iname -path -ipath -wholename -iwholename -regex -iregex -lname -ilname -type " +
    "-xtype -maxdepth -mindepth -mtime -atime -ctime -mmin -amin -cmin -size -perm -user " +
    "-group -uid -gid -links -inum -used -printf -fstype -regextype -context",
);
/** Primaries whose argument is a file that is read. */
const PATH_ARGUMENT = set("-samefile -newer -anewer -cnewer");
/** Primaries whose argument is a file that is written. */
const WRITE_ARGUMENT = set("-fprint -fprint0 -fls");
const NO_ARGUMENT = set(
  "-print -print0 -ls -prune -quit -true -false -empty -readable -writable -executable " +
    "-nouser -nogroup -depth -d -mount -xdev -noleaf -ignore_readdir_race " +
    "-noignore_readdir_race -daystart -warn -nowarn -help -version -a -and -o -or -not ! ( ) , " +
    "-delete -follow",
);
const EXEC = set("-exec -execdir -ok -okdir");

/** A `find` command line taken apart. */
export interface FindArgs {
  /** Starting points (`.` when none is given). */
  readonly starts: readonly Arg[];
  /** Commands of `-exec`, `-execdir`, `-ok`, `-okdir`, `{}` replaced by the starting points. */
  readonly commands: readonly { readonly primary: string; readonly argv: readonly Arg[] }[];
  /** Files read by primaries such as `-newer FILE`. */
  readonly reads: readonly Arg[];
  /** Files written by `-fprint`, `-fprint0`, `-fls`, `-fprintf`. */
  readonly writes: readonly { readonly primary: string; readonly file: Arg }[];
  readonly deletes: boolean;
  /** `-L` or `-follow`: symlinks are followed out of the workspace. */
  readonly follows: boolean;
  /** Primaries this parser does not know. */
  readonly unknown: readonly string[];
}

/** Parses the arguments of `find` (without the program name). */
export function parseFind(args: readonly Arg[]): FindArgs {
  let i = 0;
  let follows = false;
  while (i < args.length && /^-(?:[HLP]|D|O\d?)$/.test(args[i]?.value ?? "")) {
    if (args[i]?.value === "-L") follows = true;
    i += args[i]?.value === "-D" ? 2 : 1;
  }
  const starts: Arg[] = [];
  // The starting points end where GNU find sees an expression: a word of `-` and more, or
  // `(` or `!` alone. A bare `,` or `)`, `-` alone and `(x` are file names there.
  const expression = (word: string) => /^-./s.test(word) || word === "(" || word === "!";
  while (i < args.length && !expression(args[i]?.value ?? "-x")) starts.push(args[i++] as Arg);
  const startingPoints = starts.length > 0 ? starts : [literalArg(".")];
  const commands: { primary: string; argv: Arg[] }[] = [];
  const reads: Arg[] = [];
  const writes: { primary: string; file: Arg }[] = [];
  const unknown: string[] = [];
  let deletes = false;
  while (i < args.length) {
    const primary = args[i]?.value ?? "";
    i += 1;
    if (EXEC.has(primary)) {
      const argv: Arg[] = [];
      while (i < args.length && args[i]?.value !== ";" && args[i]?.value !== "+") {
        const arg = args[i++] as Arg;
        argv.push(
          arg.value.includes("{}")
            ? {
                ...arg,
                value: arg.value.replaceAll("{}", startingPoints[0]?.value ?? "."),
                plain: false,
              }
            : arg,
        );
      }
      i += 1;
      commands.push({ primary, argv });
    } else if (ONE_ARGUMENT.has(primary)) i += 1;
    else if (PATH_ARGUMENT.has(primary) || /^-newer[aBcm][aBcm]$/.test(primary)) {
      const file = args[i++];
      if (file !== undefined) reads.push(file);
    } else if (/^-newer[aBcm]t$/.test(primary)) i += 1;
    else if (WRITE_ARGUMENT.has(primary) || primary === "-fprintf") {
      const file = args[i];
      i += primary === "-fprintf" ? 2 : 1;
      if (file !== undefined) writes.push({ primary, file });
    } else if (NO_ARGUMENT.has(primary)) {
      deletes ||= primary === "-delete";
      follows ||= primary === "-follow";
    } else unknown.push(primary);
  }
  return { starts: startingPoints, commands, reads, writes, deletes, follows, unknown };
}
