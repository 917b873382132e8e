import type { SecretSpan } from "./secret-span.js";

/**
 * Passwords given to a program as a short option, where the option letter alone would
 * mean something else in another program: `mysql -pSECRET` (a bare `-p` prompts, and the
 * word after it is the database), `sshpass -p SECRET`, `redis-cli -a SECRET`,
 * `docker login -p SECRET`, `sqlcmd -P SECRET`, `mongosh -p SECRET`, and the password
 * after `%` in `smbclient -U user%SECRET`. Long options (`--password=...`), `curl -u`,
 * URLs with `user:password@` and variables (`PGPASSWORD=...`) are found by the other
 * rules.
 *
 * Linear in the text: a program's words are read up to the end of its command (a newline,
 * `;`, `|`, `&`, at most 4,096 characters) or the next program of the table, and the next
 * search for a program starts where that reading stopped.
 */
export function findCommandLinePasswords(text: string): SecretSpan[] {
  const spans: SecretSpan[] = [];
  PROGRAM.lastIndex = 0;
  for (let match = PROGRAM.exec(text); match; match = PROGRAM.exec(text)) {
    const options = OPTIONS_BY_PROGRAM.get(match[1] ?? "") ?? [];
    PROGRAM.lastIndex = Math.max(
      PROGRAM.lastIndex,
      readCommand(text, PROGRAM.lastIndex, options, spans),
    );
  }
  return spans;
}

/** A short option that takes a password. */
interface PasswordOption {
  readonly programs: readonly string[];
  /** The option, `-p`. */
  readonly option: string;
  /** Only `-pSECRET` counts: `-p VALUE` means something else (mysql prompts). */
  readonly attachedOnly?: boolean;
  /** A word that must come before the option: docker's `login`. */
  readonly after?: string;
  /** The secret is what follows this character in the value: smbclient's `user%password`. */
  readonly from?: string;
  /** The program's own options end at its first operand: `sshpass -p X ssh -p 22 host`. */
  readonly optionsFirst?: boolean;
}

const MYSQL = [
  "mysql",
  "mysqldump",
  "mysqladmin",
  "mysqlimport",
  "mysqlcheck",
  "mysqlshow",
  "mysqlslap",
  "mysqlpump",
  "mysqlbinlog",
  "mariadb",
  "mariadb-dump",
  "mariadb-admin",
  "mariadb-import",
  "mariadb-check",
  "mariadb-show",
  "mariadb-slap",
];
const MONGO = ["mongo", "mongosh", "mongodump", "mongorestore", "mongoexport", "mongoimport"];

const OPTIONS: readonly PasswordOption[] = [
  { programs: MYSQL, option: "-p", attachedOnly: true },
  { programs: ["sshpass"], option: "-p", optionsFirst: true },
  { programs: ["redis-cli", "valkey-cli"], option: "-a" },
  {
    programs: ["docker", "podman", "nerdctl", "buildah", "skopeo", "helm"],
    option: "-p",
    after: "login",
  },
  { programs: ["sqlcmd", "bcp"], option: "-P" },
  { programs: MONGO, option: "-p" },
  { programs: ["smbclient", "rpcclient", "smbcacls", "smbget"], option: "-U", from: "%" },
];

const OPTIONS_BY_PROGRAM = new Map<string, PasswordOption[]>();
for (const option of OPTIONS)
  for (const program of option.programs)
    OPTIONS_BY_PROGRAM.set(program, [...(OPTIONS_BY_PROGRAM.get(program) ?? []), option]);

const escapeRegex = (text: string) => text.replace(/[.*+?^${}()|[\]\\-]/g, "\\$&");
/** A program of the table as a command word (also `/usr/bin/mysql`); group 1 is its name. */
const PROGRAM = new RegExp(
  `(?<![^\\s;&|(\`/])(${[...OPTIONS_BY_PROGRAM.keys()]
    .sort((a, b) => b.length - a.length)
    .map(escapeRegex)
    .join("|")})(?=[ \\t]|\\\\\\n)`,
  "g",
);
const MAX_COMMAND = 4096;
const COMMAND_END = /[\n;&|()<>]/;

interface Word {
  readonly start: number;
  readonly end: number;
}

/** The next word at or after `from` before `limit`, or undefined at the command's end. */
function nextWord(text: string, from: number, limit: number): Word | undefined {
  let start = from;
  for (;;) {
    while (start < limit && (text[start] === " " || text[start] === "\t")) start += 1;
    // A backslash-newline continues the command on the next line.
    if (text[start] === "\\" && text[start + 1] === "\n") start += 2;
    else break;
  }
  if (start >= limit || COMMAND_END.test(text.charAt(start))) return undefined;
  let end = start;
  while (end < limit) {
    const character = text.charAt(end);
    if (character === '"' || character === "'") {
      const close = text.slice(end + 1, limit).indexOf(character);
      end = close < 0 ? limit : end + 1 + close + 1;
      continue;
    }
    if (/\s/.test(character) || COMMAND_END.test(character)) break;
    end += 1;
  }
  return { start, end };
}

/** `[start, end)` without one pair of surrounding quotes. */
function unquoted(text: string, start: number, end: number): SecretSpan {
  const first = text[start];
  if ((first === '"' || first === "'") && end - start >= 2 && text[end - 1] === first)
    return { start: start + 1, end: end - 1 };
  return { start, end };
}

function secretOf(text: string, value: SecretSpan, option: PasswordOption): SecretSpan | undefined {
  let span = unquoted(text, value.start, value.end);
  if (option.from !== undefined) {
    const at = text.slice(span.start, span.end).indexOf(option.from);
    if (at < 0) return undefined;
    span = { start: span.start + at + 1, end: span.end };
  }
  return span.end > span.start ? span : undefined;
}

/** Reads one command's words from `from`; returns where the next search starts. */
function readCommand(
  text: string,
  from: number,
  options: readonly PasswordOption[],
  spans: SecretSpan[],
): number {
  const limit = Math.min(text.length, from + MAX_COMMAND);
  const seen = new Set<string>();
  let pending: PasswordOption | undefined;
  let position = from;
  for (let word = nextWord(text, from, limit); word; word = nextWord(text, word.end, limit)) {
    position = word.end;
    const value = text.slice(word.start, word.end);
    if (pending) {
      const secret = secretOf(text, word, pending);
      if (secret) spans.push(secret);
      pending = undefined;
      continue;
    }
    // Another program of the table starts its own command; the next search finds it.
    if (OPTIONS_BY_PROGRAM.has(value.slice(value.lastIndexOf("/") + 1))) return word.start;
    if (value === "--") return position;
    if (!value.startsWith("-") && options.some((option) => option.optionsFirst)) return position;
    for (const option of options) {
      if (option.after !== undefined && !seen.has(option.after)) continue;
      if (value === option.option) {
        if (!option.attachedOnly) pending = option;
      } else if (value.startsWith(option.option) && value.length > option.option.length) {
        const secret = secretOf(
          text,
          { start: word.start + option.option.length, end: word.end },
          option,
        );
        if (secret) spans.push(secret);
      }
    }
    seen.add(value);
  }
  return position;
}
