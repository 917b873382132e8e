import type { SecretSpan } from "./secret-span.js";

const BEGIN = /-----BEGIN[ A-Z0-9_-]{0,100}PRIVATE KEY(?: BLOCK)?-----/gi;
const END = /-----END[ A-Z0-9_-]{0,100}-----/gi;
/** What a key body is made of when its closing line is missing (a cut-off output). */
const BODY = /(?:[A-Za-z0-9+/=\s:,.-]|\\[nrt])*/y;

/**
 * The bodies of private key blocks: PEM (`-----BEGIN RSA PRIVATE KEY-----`, `EC`,
 * `ENCRYPTED`, PKCS#8), OpenSSH and PGP (`-----BEGIN PGP PRIVATE KEY BLOCK-----`), over
 * real or escaped (`\n`) newlines. The opening and closing lines stay, so a reader sees
 * which key was there. A block whose closing line is missing loses everything that looks
 * like its body.
 *
 * Linear: each opening line is found once, and the next closing line is looked up only
 * when the previous one lies behind it.
 */
export function findPrivateKeyBlocks(text: string): SecretSpan[] {
  const spans: SecretSpan[] = [];
  let nextEnd: { index: number; length: number } | null | undefined;
  BEGIN.lastIndex = 0;
  for (let begin = BEGIN.exec(text); begin; begin = BEGIN.exec(text)) {
    const bodyStart = begin.index + begin[0].length;
    if (nextEnd !== null && (nextEnd === undefined || nextEnd.index < bodyStart)) {
      END.lastIndex = bodyStart;
      const end = END.exec(text);
      nextEnd = end && { index: end.index, length: end[0].length };
    }
    let bodyEnd: number;
    if (nextEnd) {
      bodyEnd = nextEnd.index;
      BEGIN.lastIndex = nextEnd.index + nextEnd.length;
    } else {
      BODY.lastIndex = bodyStart;
      BODY.exec(text);
      bodyEnd = BODY.lastIndex;
      BEGIN.lastIndex = Math.max(bodyEnd, bodyStart);
    }
    const span = trimmed(text, bodyStart, bodyEnd);
    if (span.end > span.start) spans.push(span);
  }
  return spans;
}

/** `[start, end)` without surrounding white space and escaped newlines. */
function trimmed(text: string, start: number, end: number): SecretSpan {
  let from = start;
  let to = end;
  for (;;) {
    if (from < to && /\s/.test(text.charAt(from))) from += 1;
    else if (from + 1 < to && text[from] === "\\" && /[nrt]/.test(text.charAt(from + 1))) from += 2;
    else break;
  }
  for (;;) {
    if (to > from && /\s/.test(text.charAt(to - 1))) to -= 1;
    else if (to - 1 > from && text[to - 2] === "\\" && /[nrt]/.test(text.charAt(to - 1))) to -= 2;
    else break;
  }
  return { start: from, end: to };
}
