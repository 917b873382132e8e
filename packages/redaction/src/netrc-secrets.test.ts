import { describe, expect, it } from "vitest";
import { redactSecrets } from "./index.js";

describe("redactSecrets on .netrc entries", () => {
  it("hides the password of an entry on one line", () => {
    expect(
      redactSecrets("machine api.heroku.com login ada@example.org password Zq8vR2mN4pX7"),
    ).toBe("machine api.heroku.com login ada@example.org password [REDACTED]");
  });

  it("hides passwords and accounts of entries over several lines, and of the default entry", () => {
    const netrc = [
      "machine github.com",
      "  login ada",
      "  password s3cr3tpasswordvalue",
      "",
      'machine ftp.example.org login anonymous password "with space" account acct9Secret',
      "default login guest password guest1234",
    ].join("\n");
    const redacted = redactSecrets(netrc);
    for (const secret of ["s3cr3tpasswordvalue", "with space", "acct9Secret", "guest1234"])
      expect(redacted).not.toContain(secret);
    expect(redacted).toContain("  login ada\n  password [REDACTED]\n");
    expect(redacted).toContain("default login guest password [REDACTED]");
  });

  it("leaves prose about machines and default passwords alone", () => {
    for (const text of [
      "The build machine runs tests; its password is in the vault.",
      "By default password prompts time out after 30 s.",
      "machine learning models need data",
      "password: ",
    ])
      expect(redactSecrets(text)).toBe(text);
  });
});
