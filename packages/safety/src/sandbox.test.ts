import { describe, expect, it } from "vitest";
import { createSandbox } from "./sandbox.js";

describe("sandbox", () => {
  it("finds bubblewrap on this machine (the project's setup installs it)", () => {
    expect(createSandbox().kind).toBe("bubblewrap");
  });

  it("wraps a command: workspace writable, protected paths read-only, no network", () => {
    const { file, args } = createSandbox().wrap(["ls"], {
      workspace: "/w",
      cwd: "/w/src",
      readOnlyPaths: ["/"],
    });
    expect(file).toMatch(/bwrap$/);
    expect(args.join(" ")).toContain(
      "--ro-bind / / --dev /dev --proc /proc --tmpfs /tmp --bind /w /w --ro-bind / /",
    );
    expect(args).toContain("--unshare-net");
    expect(args.slice(-4)).toEqual(["--chdir", "/w/src", "--", "ls"]);
    expect(
      createSandbox().wrap(["ls"], { workspace: "/w", cwd: "/w", network: true }).args,
    ).not.toContain("--unshare-net");
  });

  it("says once why there is no sandbox when bwrap is missing, and runs commands unwrapped", () => {
    const sandbox = createSandbox({ bwrapPath: "/nonexistent/bwrap" });
    expect(sandbox.kind).toBe("none");
    expect(sandbox.warning).toContain("apt-get install bubblewrap");
    expect(sandbox.wrap(["ls", "-la"], { workspace: "/w", cwd: "/w" })).toEqual({
      file: "ls",
      args: ["-la"],
    });
  });
});
