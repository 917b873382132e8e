// Installed size of the CLI from the packed tarballs: what `npx @xzatoma/cli` downloads
// and unpacks. Target: under 50 MB.
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import {
  CLI_PACKAGES,
  installTarballs,
  packPackages,
} from "../tools/workspace-checks/src/pack-and-install.ts";

const base = mkdtempSync(path.join(tmpdir(), "xz-size-"));
try {
  const tarballs = packPackages(CLI_PACKAGES, path.join(base, "tarballs"));
  const packed = tarballs.reduce((sum, file) => sum + statSync(file).size, 0);
  const project = path.join(base, "project");
  installTarballs(tarballs, project);
  const bytes = Number(
    execFileSync("du", ["-sb", path.join(project, "node_modules")], { encoding: "utf8" }).split(
      "\t",
    )[0],
  );
  const packages =
    execFileSync("npm", ["ls", "--all", "--parseable"], { cwd: project, encoding: "utf8" })
      .trim()
      .split("\n").length - 1;
  console.log(`install size of @xzatoma/cli with its dependencies (npm, from packed tarballs)`);
  console.log(
    `  our tarballs        ${(packed / 1024).toFixed(1)} KiB in ${tarballs.length} packages`,
  );
  console.log(
    `  node_modules        ${(bytes / 1e6).toFixed(1)} MB, ${packages} packages (target < 50 MB)`,
  );
  const heaviest = execFileSync(
    "sh",
    ["-c", `du -sb node_modules/* node_modules/@*/* 2>/dev/null | sort -rn | head -5`],
    {
      cwd: project,
      encoding: "utf8",
    },
  );
  console.log(`  largest:\n${heaviest.trimEnd().replace(/^/gm, "    ")}`);
} finally {
  rmSync(base, { recursive: true, force: true });
}
