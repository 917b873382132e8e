/**
 * The read-only programs that run unasked when nothing else is wrong: each has an argument
 * spec (`allowlist.ts`) that keeps out every option that writes, runs a program or follows
 * out of the workspace.
 */
export const DEFAULT_ALLOWLIST: readonly string[] = (
  "ls cat head tail grep rg find echo printf pwd which type wc true false test expr seq " +
  "numfmt basename dirname env printenv uname whoami id groups hostname nproc arch date stat du " +
  "df tree realpath readlink file diff cmp comm sha1sum sha224sum sha256sum sha384sum " +
  "sha512sum md5sum b2sum cksum sort uniq cut tr nl rev tac column paste join fold expand " +
  "unexpand od hexdump sed jq"
).split(" ");
