import { describe, expect, it } from "vitest";
import { createEgressHostMatcher } from "./host-patterns.js";

describe("createEgressHostMatcher", () => {
  const allowHost = createEgressHostMatcher([
    "registry.example.org",
    "*.pkgfiles.example",
    "127.0.0.1:4873",
    "[::1]:8080",
    "Bücher.Example",
  ]);

  it("admits a listed host on ports 80 and 443, or on the port it names", () => {
    expect(allowHost("registry.example.org", 443)).toBe(true);
    expect(allowHost("registry.example.org", 80)).toBe(true);
    expect(allowHost("registry.example.org", 8080)).toBe(false);
    expect(allowHost("127.0.0.1", 4873)).toBe(true);
    expect(allowHost("127.0.0.1", 443)).toBe(false);
    expect(allowHost("::1", 8080)).toBe(true);
    expect(allowHost("xn--bcher-kva.example", 443)).toBe(true);
  });

  it("admits names below a wildcard's domain, not the domain itself or look-alikes", () => {
    expect(allowHost("files.pkgfiles.example", 443)).toBe(true);
    expect(allowHost("a.b.pkgfiles.example", 443)).toBe(true);
    expect(allowHost("pkgfiles.example", 443)).toBe(false);
    expect(allowHost("evilpkgfiles.example", 443)).toBe(false);
    expect(allowHost("registry.example.org.evil.test", 443)).toBe(false);
    expect(allowHost("sub.registry.example.org", 443)).toBe(false);
  });

  it("refuses malformed entries by name", () => {
    for (const entry of ["", "a b", "*.com", "*", "host:0", "host:70000", "*.[::1]", "http://x"]) {
      expect(() => createEgressHostMatcher([entry]), entry).toThrow(TypeError);
    }
  });
});
