/**
 * Options that make a program take the paths it works on, or its patterns, arguments or
 * data, from a file: the file's contents never pass the path checks (`wc
 * --files0-from=list` reads whatever `list` names, `/etc/shadow` included), and a secret
 * file used as a list or as patterns ends up in output and error messages. Such a command
 * is never `allow`; with a secret-looking file it blocks. From the GNU coreutils,
 * findutils, grep, sed, tar, cpio and rsync manuals, and the tools that share the idioms.
 */
export interface ListSpec {
  /** Value-taking short options of the program, so clusters parse (list letters included). */
  readonly shortValue?: string;
  /** Value-taking long options of the program (list options included). */
  readonly longValue?: readonly string[];
  /** The options whose value is a list file (`-T`, `--files-from`). */
  readonly lists: readonly string[];
  /** What the file holds, for the reason. */
  readonly holds: string;
  /** Options that make the program read its list from standard input (`cpio -o`, `zip -@`). */
  readonly stdinModes?: readonly string[];
  /** Options that make every operand a list file (`sha256sum -c SUMS`). */
  readonly listOperandsWith?: readonly string[];
  /** Options end at the first operand (the program runs a command given after them). */
  readonly stopAtOperand?: boolean;
}

const GREP: ListSpec = {
  shortValue: "efmABCdD",
  longValue: ["regexp", "file", "exclude-from", "max-count", "context", "label", "include"],
  lists: ["-f", "--file", "--exclude-from"],
  holds: "patterns",
};
const CHECKSUM: ListSpec = {
  longValue: [],
  lists: [],
  listOperandsWith: ["-c", "--check"],
  holds: "the names of the files to check",
};
const SED: ListSpec = {
  shortValue: "efl",
  longValue: ["expression", "file", "line-length"],
  lists: ["-f", "--file"],
  holds: "a script",
};
const AWK: ListSpec = {
  shortValue: "fvFiEe",
  longValue: ["file", "include", "exec", "source", "assign", "field-separator"],
  lists: ["-f", "--file", "-i", "--include", "-E", "--exec"],
  holds: "a program",
};

export const LIST_SPECS: ReadonlyMap<string, ListSpec> = new Map<string, ListSpec>([
  [
    "wc",
    {
      longValue: ["files0-from"],
      lists: ["--files0-from"],
      holds: "the names of the files to read",
    },
  ],
  [
    "du",
    {
      shortValue: "BdtX",
      longValue: [
        "files0-from",
        "exclude-from",
        "block-size",
        "max-depth",
        "threshold",
        "exclude",
        "time-style",
      ],
      lists: ["--files0-from", "-X", "--exclude-from"],
      holds: "the names of the files to measure",
    },
  ],
  [
    "sort",
    {
      shortValue: "kotST",
      longValue: [
        "files0-from",
        "random-source",
        "key",
        "output",
        "field-separator",
        "buffer-size",
        "temporary-directory",
        "compress-program",
        "parallel",
        "batch-size",
      ],
      lists: ["--files0-from", "--random-source"],
      holds: "the names of the files to sort",
    },
  ],
  [
    "shuf",
    {
      shortValue: "einro",
      longValue: ["random-source", "input-range", "head-count", "output"],
      lists: ["--random-source"],
      holds: "random bytes",
    },
  ],
  [
    "date",
    {
      shortValue: "dfIrR",
      longValue: ["file", "date", "reference"],
      lists: ["-f", "--file"],
      holds: "dates, one a line (errors print the lines)",
    },
  ],
  [
    "ptx",
    {
      shortValue: "bFgiMoSwW",
      longValue: ["break-file", "ignore-file", "only-file"],
      lists: ["-b", "--break-file", "-i", "--ignore-file", "-o", "--only-file"],
      holds: "words",
    },
  ],
  ["md5sum", CHECKSUM],
  ["sha1sum", CHECKSUM],
  ["sha224sum", CHECKSUM],
  ["sha256sum", CHECKSUM],
  ["sha384sum", CHECKSUM],
  ["sha512sum", CHECKSUM],
  ["b2sum", CHECKSUM],
  ["cksum", CHECKSUM],
  ["shasum", CHECKSUM],
  ["grep", GREP],
  ["egrep", GREP],
  ["fgrep", GREP],
  ["rgrep", GREP],
  ["zgrep", GREP],
  [
    "rg",
    {
      shortValue: "efgmABCEjMtT",
      longValue: [
        "regexp",
        "file",
        "ignore-file",
        "glob",
        "max-count",
        "context",
        "type",
        "type-not",
      ],
      lists: ["-f", "--file", "--ignore-file"],
      holds: "patterns or ignore rules",
    },
  ],
  [
    "ag",
    {
      shortValue: "GpAB",
      longValue: ["path-to-ignore", "file-search-regex"],
      lists: ["-p", "--path-to-ignore"],
      holds: "ignore rules",
    },
  ],
  ["sed", SED],
  ["gsed", SED],
  ["awk", AWK],
  ["gawk", AWK],
  [
    "tar",
    {
      shortValue: "bCfFgHIKLNTVX",
      longValue: [
        "files-from",
        "exclude-from",
        "file",
        "directory",
        "to-command",
        "use-compress-program",
        "info-script",
        "new-volume-script",
        "format",
        "transform",
        "exclude",
      ],
      lists: ["-T", "--files-from", "-X", "--exclude-from"],
      holds: "the names of the files to archive",
    },
  ],
  [
    "bsdtar",
    {
      shortValue: "bCfINsTX",
      longValue: ["files-from", "exclude-from", "file", "directory"],
      lists: ["-T", "--files-from", "-X", "--exclude-from"],
      holds: "the names of the files to archive",
    },
  ],
  [
    "cpio",
    {
      shortValue: "CEFHIMORs",
      longValue: ["pattern-file", "file", "format", "message", "owner", "block-size"],
      lists: ["-E", "--pattern-file"],
      holds: "patterns",
      stdinModes: ["-o", "--create", "-p", "--pass-through"],
    },
  ],
  [
    "rsync",
    {
      shortValue: "eBfTM@",
      longValue: [
        "files-from",
        "exclude-from",
        "include-from",
        "password-file",
        "rsh",
        "filter",
        "exclude",
        "include",
        "temp-dir",
        "partial-dir",
        "backup-dir",
        "suffix",
        "log-file",
        "port",
        "rsync-path",
      ],
      lists: ["--files-from", "--exclude-from", "--include-from", "--password-file"],
      holds: "the names of the files to copy, or a password",
    },
  ],
  [
    "xargs",
    {
      shortValue: "aEdILnPs",
      longValue: [
        "arg-file",
        "delimiter",
        "max-lines",
        "max-args",
        "max-procs",
        "max-chars",
        "process-slot-var",
        "replace",
        "eof",
      ],
      lists: ["-a", "--arg-file"],
      holds: "the arguments of the commands it runs",
      stopAtOperand: true,
    },
  ],
  [
    "parallel",
    {
      shortValue: "aj",
      longValue: ["arg-file", "jobs"],
      lists: ["-a", "--arg-file"],
      holds: "the arguments of the commands it runs",
      stopAtOperand: true,
    },
  ],
  [
    "file",
    {
      shortValue: "fFmeP",
      longValue: ["files-from", "magic-file", "separator"],
      lists: ["-f", "--files-from", "-m", "--magic-file"],
      holds: "the names of the files to look at",
    },
  ],
  [
    "xgettext",
    {
      shortValue: "fDdop",
      longValue: ["files-from", "directory", "default-domain", "output"],
      lists: ["-f", "--files-from"],
      holds: "the names of the files to scan",
    },
  ],
  ["ctags", { shortValue: "Lfo", lists: ["-L"], holds: "the names of the files to index" }],
  ["etags", { shortValue: "Lfo", lists: ["-L"], holds: "the names of the files to index" }],
  [
    "zip",
    {
      shortValue: "bnPtx",
      lists: [],
      holds: "the names of the files to archive",
      stdinModes: ["-@"],
    },
  ],
  [
    "wget",
    {
      shortValue: "OoaPieUtTwQDlABIXY",
      longValue: ["input-file"],
      lists: ["-i", "--input-file"],
      holds: "the URLs to fetch",
    },
  ],
  [
    "aria2c",
    {
      shortValue: "idoU",
      longValue: ["input-file"],
      lists: ["-i", "--input-file"],
      holds: "the URLs to fetch",
    },
  ],
]);

/** Programs that read more arguments from `@file` operands (GCC, binutils, Java response files). */
export const RESPONSE_FILES = new Set([
  "gcc",
  "g++",
  "cc",
  "c++",
  "cpp",
  "clang",
  "clang++",
  "ld",
  "ld.lld",
  "ld.gold",
  "as",
  "ar",
  "nm",
  "objdump",
  "objcopy",
  "strip",
  "readelf",
  "size",
  "strings",
  "addr2line",
  "javac",
  "java",
  "jar",
  "javadoc",
  "kotlinc",
  "scalac",
  "rustc",
  "mypy",
]);

/** Git options whose value is a file of paths or of text that goes into the repository. */
export const GIT_LISTS: ReadonlyMap<string, string> = new Map([
  ["--pathspec-from-file", "the paths to work on"],
  ["--ignore-revs-file", "commits to skip"],
  ["--template", "a message template"],
]);
export const GIT_MESSAGE_FILES = new Set(["commit", "tag", "notes", "merge"]);
