/**
 * File names compared the way the most forgiving file system compares them, so a rule
 * about `AGENTS.md` also holds for every name that some file system opens as that file.
 *
 * `toLowerCase` alone is not enough: `ß` and `ss`, `ﬁ` and `fi`, the Kelvin sign and `k`,
 * `ẞ` and `ss` fold together under Unicode full case folding (APFS and ext4's casefold
 * directories use it), NTFS and FAT drop trailing dots and spaces, and HFS+ ignores
 * zero-width characters (git's CVE-2014-9390: `.g\u200cit` is `.git` there).
 */

const IGNORABLE = /\p{Default_Ignorable_Code_Point}/gu;
const ONLY_DOTS = /^\.+$/;
const TRAILING_DOTS_AND_SPACES = /[. ]+$/;

/**
 * One file name's comparison key: default-ignorable code points removed, NFKC
 * (compatibility forms such as fullwidth letters and ligatures become plain letters),
 * then upper- and lower-cased until nothing changes, which gives every character the
 * class Unicode full case folding (CaseFolding.txt, statuses C and F) gives it and joins
 * a few more (Turkish `ı` with `i`, as NTFS's upper-case table does). Trailing dots and
 * spaces go, as Windows file systems drop them; `.` and `..` stay as they are.
 *
 * Coarser than any one file system on purpose: two names with the same key may be one file
 * somewhere, so a protection given to one holds for both.
 *
 * @example
 * foldName("AGENTS.md") === foldName("agents.md");      // true
 * foldName("Stra\u00dfe") === foldName("STRASSE");      // true
 * foldName(".g\u200cit") === foldName(".git");          // true
 * foldName("AGENTS.md. ") === foldName("agents.md");    // true
 */
export function foldName(name: string): string {
  let folded = name.replace(IGNORABLE, "").normalize("NFKC");
  // Each round can only move a character to a smaller class (ẞ → ß → ss); three suffice.
  for (let round = 0; round < 4; round++) {
    const next = folded.toUpperCase().toLowerCase().normalize("NFKC");
    if (next === folded) break;
    folded = next;
  }
  if (ONLY_DOTS.test(folded)) return folded;
  return folded.replace(TRAILING_DOTS_AND_SPACES, "");
}
