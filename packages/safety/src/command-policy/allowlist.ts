import { literalArg, type Arg, type ArgvContext, type RunArgv } from "./context.js";
import { parseFind } from "./find-args.js";
import type { PathAccess } from "./findings.js";
import { checkJq, checkSedScript } from "./reader-scripts.js";
import {
  hasOption,
  optionValues,
  parseOptions,
  type OptionTable,
  type ParsedArgs,
} from "./option-scan.js";
import { pathLike, requestPath } from "./path-arguments.js";

/**
 * What the operands of a reader are: files it reads (`paths`, the default), files whose
 * names and metadata it reads (`list`), a pattern then files (`pattern`), text it prints
 * or computes with (`data`), nothing (`none`: an operand would change something, as in
 * `hostname NAME`), words some of which may be places (`words`: `test -f x`), or a
 * `+FORMAT` (`format`: `date 0101…` sets the clock).
 */
type Operands = "paths" | "list" | "pattern" | "data" | "none" | "words" | "format";

/**
 * The read-only programs and their arguments, one entry each (indented lines continue it):
 *
 *     name | flags | letters taking a value | long flags | long options taking a value | more
 *
 * `--help` and `--version` are added to every entry. `more` holds the operand kind (see
 * {@link Operands}) and: `any` (unknown options are printed or ignored, never obeyed, as by
 * `echo`), `num=UNITS` (`-NUM` is an option, `head -20`, with these letters belonging to the
 * number), `paths=OPTS` (options whose value is a file read), `recursive=OPTS` (options with
 * which every operand is read recursively; `*`: always), `max=N` (more operands write one).
 *
 * Every option not listed is unknown and keeps the command from running directly: the lists
 * leave out every option that writes a file, runs a program, follows symlinks out of the
 * workspace, or reads names from a file the check does not see (`sort -o`,
 * `--compress-program`, `-T`, `--files0-from`; `rg --pre`, `-z`, `-L`; `tree -o`, `-l`; `du -L`;
 * `diff -l`; `file -z`, `-C`, `-f`; `sha256sum -c`; `date -s`; `sed -i`, `-f`). Short options are
 * read getopt style (`-rn` is `-r -n`); a long option must be spelled out: a prefix unique
 * among the listed options may be another one of the program (`rg --pre` is not `--pretty`).
 */
const READERS = `
ls | aAbBcCdDfFgGhHiklLmnNopqQrRsStuUvxXZ1 | ITw | all almost-all author escape ignore-backups
  directory classify file-type full-time group-directories-first no-group human-readable si
  dereference dereference-command-line dereference-command-line-symlink-to-dir inode kibibytes
  literal numeric-uid-gid hide-control-chars show-control-chars quote-name reverse recursive
  size context color colour hyperlink indicator-style quoting-style sort time time-style format
  zero | block-size hide ignore tabsize width | list
cat | AbeEnstTuv | | show-all number-nonblank show-ends number squeeze-blank show-tabs
  show-nonprinting | |
head | qvz | nc | quiet silent verbose zero-terminated | lines bytes | num=bcklmqv
tail | qvzfF | ncs | quiet silent verbose zero-terminated follow retry | lines bytes pid
  sleep-interval max-unchanged-stats | num=bcklmqv
grep | EFGPiyvwxcLloqsbHhnTZzaIrRU | efmABCdD | extended-regexp fixed-strings basic-regexp
  perl-regexp ignore-case no-ignore-case invert-match word-regexp line-regexp count color colour
  files-without-match files-with-matches only-matching quiet silent no-messages byte-offset
  with-filename no-filename line-number initial-tab null null-data text recursive
  dereference-recursive line-buffered binary | regexp file max-count after-context
  before-context context binary-files devices directories exclude exclude-from exclude-dir
  include label | pattern num= paths=-f,--file,--exclude-from
  recursive=-r,-R,--recursive,--dereference-recursive
rg | abcFHiIlnNopPqsSUuvwx0. | ABCdeEfgjmMrtT | text byte-offset count count-matches
  fixed-strings with-filename no-filename ignore-case no-ignore-case files-with-matches
  files-without-match line-number no-line-number only-matching pretty pcre2 quiet
  case-sensitive smart-case multiline multiline-dotall unrestricted invert-match word-regexp
  line-regexp null null-data hidden no-hidden no-ignore no-ignore-vcs no-ignore-parent
  no-ignore-dot no-ignore-global no-ignore-exclude no-ignore-files no-messages no-config files
  type-list json heading no-heading column no-column trim stats vimgrep crlf no-unicode
  no-require-git binary no-binary glob-case-insensitive passthru line-buffered block-buffered
  sort-files one-file-system include-zero no-follow | after-context before-context context
  max-depth regexp encoding file glob iglob threads max-count max-columns replace type
  type-not max-filesize sort sortr color colors context-separator field-context-separator
  field-match-separator path-separator type-add type-clear ignore-file engine
  | pattern paths=-f,--file,--ignore-file recursive=*
wc | cmlLw | | bytes chars lines max-line-length words total | |
echo | | | | | data any
printf | | | | | data
pwd | LP | | | | none
which | as | | | | data any
type | afptP | | | | data
true | | | | | data any
false | | | | | data any
test | | | | | words any
expr | | | | | data any
numfmt | | | | | data any
seq | w | fs | equal-width | format separator | data num=
basename | az | s | multiple zero | suffix | data
dirname | z | | zero | | data
printenv | 0 | | null | | data
uname | asnrvmpio | | all kernel-name nodename kernel-release kernel-version machine processor
  hardware-platform operating-system | | none
whoami | | | | | none
id | agGnruzZ | | context group groups name real user zero | | data
groups | | | | | data
hostname | fsdiIAay | | fqdn short domain ip-address all-ip-addresses alias all-fqdns yp | | none
nproc | | | all | ignore | none
arch | | | | | none
date | uR | dfr | utc universal rfc-email debug iso-8601 rfc-3339 resolution | date file
  reference | format paths=-f,--file,-r,--reference
stat | LftZ | c | dereference file-system terse cached | format printf | list
du | 0abcDhHklmsSx | dtBX | all apparent-size bytes total dereference-args human-readable
  inodes si summarize separate-dirs one-file-system count-links null time | max-depth threshold
  block-size exclude exclude-from time-style | list paths=-X,--exclude-from
df | ahHiklPTv | Btx | all human-readable si inodes local portability print-type total no-sync
  sync output | block-size type exclude-type | list
tree | adfxiqNQpugshDFvtcUrCnASJX | LPI | noreport dirsfirst filesfirst gitignore prune du si
  inodes device matchdirs ignore-case info metafirst | filelimit charset timefmt sort | list
realpath | eEmLPqsz | | canonicalize-existing canonicalize-missing logical physical quiet strip
  no-symlinks zero | relative-to relative-base | list
readlink | fmenqsvz | | canonicalize canonicalize-existing canonicalize-missing no-newline quiet
  silent verbose zero | | list
file | bcdEhikLlNnr0 | eFPm | brief checking-printout debug extension keep-going list mime
  mime-type mime-encoding no-dereference dereference no-pad no-buffer raw print0 apple
  | exclude exclude-quiet separator parameter magic-file | paths=-m,--magic-file
diff | abBdeEfHiNnpPqrsStTuwyZ | DFIxXSWUC | normal brief report-identical-files unified context
  ed rcs side-by-side left-column suppress-common-lines show-c-function expand-tabs initial-tab
  suppress-blank-empty text recursive no-dereference new-file unidirectional-new-file
  ignore-case ignore-file-name-case no-ignore-file-name-case ignore-tab-expansion
  ignore-trailing-space ignore-space-change ignore-all-space ignore-blank-lines
  strip-trailing-cr minimal speed-large-files color | label exclude exclude-from starting-file
  line-format old-line-format new-line-format unchanged-line-format old-group-format
  new-group-format changed-group-format unchanged-group-format ifdef ignore-matching-lines
  horizon-lines tabsize width to-file from-file show-function-line palette
  | paths=-X,--exclude-from,--to-file,--from-file recursive=-r,--recursive
cmp | blsv | in | print-bytes verbose quiet silent | ignore-initial bytes |
comm | 123z | | check-order nocheck-order zero-terminated total | output-delimiter |
sha1sum | btz | | binary text tag zero | |
sha224sum | btz | | binary text tag zero | |
sha256sum | btz | | binary text tag zero | |
sha384sum | btz | | binary text tag zero | |
sha512sum | btz | | binary text tag zero | |
md5sum | btz | | binary text tag zero | |
b2sum | btz | l | binary text tag zero | length |
cksum | z | al | base64 raw tag untagged zero debug | algorithm length |
sort | bdfgiMhnRrVscCumz | kSt | ignore-leading-blanks dictionary-order ignore-case
  general-numeric-sort ignore-nonprinting month-sort human-numeric-sort numeric-sort
  random-sort reverse version-sort stable unique zero-terminated merge debug check | key
  buffer-size field-separator parallel batch-size sort random-source | paths=--random-source
uniq | cdDiuz | fsw | count repeated ignore-case unique zero-terminated all-repeated group
  | skip-fields skip-chars check-chars | max=1
cut | nsz | bcdf | complement only-delimited zero-terminated | bytes characters delimiter
  fields output-delimiter |
tr | cCdst | | complement delete squeeze-repeats truncate-set1 | | data
nl | p | bdfhilnsvw | no-renumber | body-numbering section-delimiter footer-numbering
  header-numbering line-increment join-blank-lines number-format number-separator
  starting-line-number number-width |
rev | 0 | | zero | |
tac | br | s | before regex | separator |
column | txJdLe | socnNlRTEHOWripC | table fillrows json keep-empty-lines table-noheadings
  table-header-repeat | separator output-separator output-width table-name table-columns
  table-columns-limit table-right table-truncate table-noextreme table-hide table-order
  table-wrap tree tree-id tree-parent table-column |
paste | sz | d | serial zero-terminated | delimiters |
join | iz | aejotv12 | ignore-case check-order nocheck-order header zero-terminated | |
fold | bs | w | bytes spaces | width |
expand | i | t | initial | tabs |
unexpand | a | t | all first-only | tabs |
od | bcdfilosvx | AjNSt | output-duplicates traditional strings width | address-radix
  skip-bytes read-bytes format endian |
hexdump | bcCdovx | efns | one-byte-octal one-byte-char canonical two-bytes-decimal
  two-bytes-octal two-bytes-hex no-squeezing | format format-file length skip
  | paths=-f,--format-file
sed | nEsuzr | el | quiet silent regexp-extended separate unbuffered null-data posix debug
  sandbox | expression line-length |
`;

const split = (text = "", by: RegExp = /\s+/): string[] => text.split(by).filter((w) => w !== "");

/** Options that keep a reader from running directly, with why: `program options | why`. */
const REASONS: ReadonlyMap<string, string> = new Map(
  `tail -f -F --follow --retry --pid | follows the file forever and never ends
grep -R --dereference-recursive | follows symlinks out of the workspace
rg -L --follow | follows symlinks out of the workspace
rg --pre --pre-glob | runs a program on every file it searches
rg --hostname-bin | runs a program to find the host name
rg -z --search-zip | runs decompression programs on the files it searches
wc --files0-from | reads the names of the files to count from a file`
    .split("\n")
    .flatMap((line) => {
      const [program = "", ...options] = split(line.split("|")[0]);
      return options.map((option) => [`${program} ${option}`, line.split("|")[1]?.trim() ?? ""]);
    }),
);
/** Options that give a pattern, so that the first operand is a file (`grep -e x f`). */
const PATTERN_GIVEN = ["-e", "--regexp", "-f", "--file", "--files", "--type-list"];

/** A reader's spec, ready to use. */
interface ReaderSpec {
  readonly options: OptionTable;
  readonly operands: Operands;
  /** Unknown options are printed or ignored, never obeyed. */
  readonly lenient: boolean;
  readonly paths: readonly string[];
  readonly recursive: readonly string[];
  readonly maxOperands: number;
}

function parseSpec(fields: readonly string[]): ReaderSpec {
  const [flags = "", values = "", long = "", longValues = "", more = ""] = fields;
  const extras = new Map(
    split(more).map((word) => [word.split("=")[0] ?? "", word.split("=")[1] ?? ""]),
  );
  const numeric = extras.get("num");
  return {
    options: {
      shortFlag: flags,
      shortValue: values,
      longFlag: [...split(long), "help", "version"],
      longValue: split(longValues),
      numeric: numeric !== undefined,
      numericUnits: numeric ?? "",
    },
    operands:
      (["list", "pattern", "data", "none", "words", "format"] as const).find((kind) =>
        extras.has(kind),
      ) ?? "paths",
    lenient: extras.has("any"),
    paths: split(extras.get("paths"), /,/),
    recursive: split(extras.get("recursive"), /,/),
    maxOperands: Number(extras.get("max") ?? Infinity),
  };
}

const SPECS: ReadonlyMap<string, ReaderSpec> = new Map(
  READERS.trim()
    .split(/\n(?=\S)/)
    .map((entry) => {
      const [name = "", ...fields] = entry.split("|").map((field) => field.trim());
      return [name, parseSpec(fields)];
    }),
);

/** The names of every reader with an argument spec here (`find`, `jq` and `git` aside). */
export const READER_NAMES: readonly string[] = [...SPECS.keys(), "find", "jq"];

function checkFind(args: readonly Arg[], ctx: ArgvContext, run: RunArgv): void {
  const find = parseFind(args.slice(1));
  for (const start of find.starts) requestPath(ctx, start, "list", "find");
  for (const file of find.reads) requestPath(ctx, file, "list", "find");
  for (const { primary, file } of find.writes) {
    requestPath(ctx, file, "write", `find ${primary}`);
    ctx.findings.confirm(`\`find ${primary}\` writes the file \`${file.raw}\``);
  }
  if (find.deletes) {
    for (const start of find.starts) requestPath(ctx, start, "write", "find -delete");
    ctx.findings.confirm("`find -delete` deletes every file it matches");
  }
  for (const { primary, argv } of find.commands) {
    ctx.findings.confirm(
      `\`find ${primary}\` runs \`${argv[0]?.raw ?? ""}\` for every file it finds`,
    );
    run(argv, { ...ctx, wrappers: [...ctx.wrappers, `find ${primary}`] });
  }
  if (find.follows) ctx.findings.confirm("`find -L` follows symlinks out of the workspace");
  if (find.unknown.length > 0)
    ctx.findings.confirm(
      `\`find\` is given \`${find.unknown[0] ?? ""}\`, which is not a known safe primary`,
    );
}

/** What some readers need beyond their spec. */
function checkSpecial(name: string, parsed: ParsedArgs, ctx: ArgvContext): void {
  const confirm = (why: string) => ctx.findings.confirm(`\`${name}\` ${why}`);
  if (
    name === "ls" &&
    hasOption(parsed, "-L", "--dereference") &&
    hasOption(parsed, "-R", "--recursive")
  )
    confirm("with `-LR` follows symlinks out of the workspace");
  // `tail +5f FILE`, the obsolete form of `-n +5 -f`, which coreutils still reads.
  if (
    name === "tail" &&
    parsed.operands.some((operand) => /^\+\d*[bckl]?[fF]$/.test(operand.value))
  )
    confirm("with an obsolete `+...f` operand follows the file forever");
  // `test -v 'a[$(id)]'` evaluates the subscript, running the substitution.
  if (
    name === "test" &&
    [...parsed.options.map((option) => option.arg), ...parsed.operands].some((arg) =>
      /^-[vR]$/.test(arg.value),
    )
  )
    confirm("with `-v` or `-R` evaluates a variable's subscript, which may run commands");
  if (name === "sed") {
    const scripts = optionValues(parsed, "-e", "--expression");
    if (!hasOption(parsed, "-n", "--quiet", "--silent"))
      confirm("without `-n` is not a print command this check knows");
    for (const script of scripts.length > 0 ? scripts : parsed.operands.slice(0, 1))
      if (!script.known || !checkSedScript(script.value))
        confirm(`is given the script \`${script.raw}\`, which is not only print commands`);
  }
}

/** The operands of `parsed` that are read as files, recursively when `recursive`. */
function readOperands(name: string, spec: ReaderSpec, parsed: ParsedArgs, ctx: ArgvContext): void {
  const kind = spec.operands;
  const operands = parsed.operands;
  const confirm = (why: string) => ctx.findings.confirm(`\`${name}\` ${why}`);
  if (operands.length > spec.maxOperands)
    confirm(`with ${String(operands.length)} operands writes the last one`);
  if (kind === "none" && operands.length > 0)
    confirm("is given an operand, which changes something");
  if (kind === "format" && operands.some((operand) => !operand.value.startsWith("+")))
    confirm("is given an operand that is not a `+FORMAT`, which sets something");
  if (kind === "words")
    for (const operand of operands) {
      const place = operand.known ? pathLike(operand.value) : null;
      if (place !== null) requestPath(ctx, { ...operand, value: place }, "list", name);
    }
  if (kind !== "paths" && kind !== "list" && kind !== "pattern") return;
  const scripted = name === "sed" && optionValues(parsed, "-e", "--expression").length === 0;
  const pattern = (kind === "pattern" && !hasOption(parsed, ...PATTERN_GIVEN)) || scripted;
  const files = operands.slice(pattern ? 1 : 0);
  const recursive =
    spec.recursive[0] === "*" ||
    hasOption(parsed, ...spec.recursive) ||
    // grep takes any unique prefix of the action (`-d rec`); only `read` and `skip` do not recurse.
    (name === "grep" &&
      optionValues(parsed, "-d", "--directories").some(
        (v) => v.value !== "read" && v.value !== "skip",
      ));
  const access: PathAccess = kind === "list" ? "list" : "read";
  if (recursive && files.length === 0) requestPath(ctx, literalArg("."), access, name, true);
  for (const file of files) if (file.value !== "-") requestPath(ctx, file, access, name, recursive);
}

/**
 * Rules for the read-only programs of the allowlist: every path argument (option values
 * included) is queued for the workspace check; options that write, run programs or follow
 * symlinks out, and unknown options, make the command run in the sandbox instead of
 * directly. Returns whether `name` has such rules.
 */
export function checkReader(
  name: string,
  args: readonly Arg[],
  ctx: ArgvContext,
  run: RunArgv,
): boolean {
  if (name === "find") checkFind(args, ctx, run);
  else if (name === "jq") checkJq(args, ctx);
  const spec = SPECS.get(name);
  if (spec === undefined) return name === "find" || name === "jq";
  const parsed = parseOptions(args.slice(1), spec.options);
  for (const option of parsed.options) {
    const why = REASONS.get(`${name} ${option.name}`);
    if (why !== undefined) ctx.findings.confirm(`\`${name} ${option.arg.raw}\` ${why}`);
    else if (!option.known && !spec.lenient)
      ctx.findings.confirm(
        `\`${name}\` is given \`${option.arg.raw}\`, which is not a known safe option`,
      );
  }
  for (const file of optionValues(parsed, ...spec.paths)) requestPath(ctx, file, "read", name);
  checkSpecial(name, parsed, ctx);
  readOperands(name, spec, parsed, ctx);
  return true;
}

/** Operands of an allowlisted program without rules here (a custom allowlist) are checked as paths. */
export function checkCustomReader(name: string, args: readonly Arg[], ctx: ArgvContext): void {
  const parsed = parseOptions(args.slice(1), {});
  for (const file of parsed.operands) requestPath(ctx, file, "read", name);
}
