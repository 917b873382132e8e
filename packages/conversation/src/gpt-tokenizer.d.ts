// The part of the optional peer dependency gpt-tokenizer that token-counter.ts uses.
// TypeScript resolves the package's own types first; this ambient declaration only
// applies when the package is not installed, so the package type-checks and builds
// without it (as the CLI runs without it).
declare module "gpt-tokenizer/encoding/o200k_base" {
  export function countTokens(
    text: string,
    options?: { readonly disallowedSpecial?: Set<string> },
  ): number;
}
