const LANGUAGES: Readonly<Record<string, string>> = {
  ts: "ts",
  tsx: "tsx",
  js: "js",
  mjs: "js",
  cjs: "js",
  jsx: "jsx",
  json: "json",
  md: "markdown",
  py: "python",
  rs: "rust",
  go: "go",
  java: "java",
  rb: "ruby",
  sh: "bash",
  bash: "bash",
  yaml: "yaml",
  yml: "yaml",
  toml: "toml",
  html: "html",
  css: "css",
  sql: "sql",
  c: "c",
  h: "c",
  cpp: "cpp",
};

/** The code-fence language for a file name, or `text`. */
export function languageOf(path: string): string {
  const extension = /\.([A-Za-z0-9]+)$/.exec(path)?.[1]?.toLowerCase();
  return (extension && LANGUAGES[extension]) || "text";
}

/**
 * A context block: a heading line, then `body` in a code fence longer than any run of
 * backticks inside it, so the content cannot close the fence and pose as the user's text.
 */
export function contextBlock(heading: string, body: string, language = "text"): string {
  const longestRun = Math.max(0, ...(body.match(/`+/g) ?? []).map((run) => run.length));
  const fence = "`".repeat(Math.max(3, longestRun + 1));
  const text = body.endsWith("\n") ? body : `${body}\n`;
  return `### ${heading}\n${fence}${language}\n${text}${fence}`;
}

/** Cuts `text` to at most `maxBytes` UTF-8 bytes without splitting a character. */
export function cutToBytes(text: string, maxBytes: number): { text: string; cut: boolean } {
  const bytes = Buffer.from(text, "utf8");
  if (bytes.length <= maxBytes) return { text, cut: false };
  return {
    text: bytes
      .subarray(0, maxBytes)
      .toString("utf8")
      .replace(/\uFFFD+$/, ""),
    cut: true,
  };
}
