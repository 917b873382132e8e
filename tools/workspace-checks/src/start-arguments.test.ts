// `bash tools/start.sh chat --provider ollama` must pass its arguments to xzatoma and to
// nothing else. A script sourced without arguments sees its caller's, so the setup once
// ran `apt-get install bubblewrap chat --provider ollama` as root. This runs the real
// start.sh with the real tools/toolchain scripts in a scratch copy of the checkout, as
// root with bubblewrap missing, where the commands that would be slow or change the
// machine (apt-get, pnpm, nx, the model download, the CLI itself) are stand-ins that
// record their arguments.
import { execFileSync } from "node:child_process";
import {
  chmod,
  copyFile,
  mkdir,
  mkdtemp,
  readFile,
  rm,
  symlink,
  writeFile,
} from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, expect, it } from "vitest";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..");

/** The machine's commands the setup scripts use; bwrap is left out on purpose. */
const REAL_COMMANDS = [
  "bash",
  "env",
  "dirname",
  "cat",
  "mkdir",
  "chmod",
  "mv",
  "uname",
  "readlink",
  "rm",
  "sleep",
  "tail",
];

let base: string;
let checkout: string;
let records: string;

async function executable(file: string, content: string): Promise<void> {
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, content);
  await chmod(file, 0o755);
}

/** A stand-in command that appends its name and arguments, one per line, to the records. */
function recorder(name: string, exitCode = 0): string {
  return `#!/bin/bash\n{ printf '%s' ${name}; printf ' [%s]' "$@"; printf '\\n'; } >>"$XZ_TEST_RECORDS"\nexit ${exitCode}\n`;
}

beforeAll(async () => {
  base = await mkdtemp(path.join(tmpdir(), "xz-start-arguments-"));
  checkout = path.join(base, "a checkout");
  records = path.join(base, "records.txt");
  await writeFile(records, "");
  for (const file of [
    "tools/start.sh",
    "tools/toolchain/env.sh",
    "tools/toolchain/system-packages.sh",
  ]) {
    await mkdir(path.dirname(path.join(checkout, file)), { recursive: true });
    await copyFile(path.join(ROOT, file), path.join(checkout, file));
  }
  await executable(path.join(checkout, "tools/models/fetch-model.sh"), recorder("fetch-model"));
  // The CLI: `config show --json` answers with a data directory, anything else is recorded.
  await mkdir(path.join(checkout, "apps/cli/bin"), { recursive: true });
  await writeFile(
    path.join(checkout, "apps/cli/bin/xzatoma.js"),
    [
      'import { appendFileSync } from "node:fs";',
      "const args = process.argv.slice(2);",
      'if (args.join(" ") === "config show --json") {',
      '  process.stdout.write(JSON.stringify({ config: { persistence: { data_dir: "/nonexistent" } } }));',
      "} else {",
      '  appendFileSync(process.env.XZ_TEST_RECORDS, "xzatoma" + args.map((a) => ` [${a}]`).join("") + "\\n");',
      "}",
      "",
    ].join("\n"),
  );
  // pnpm where env.sh looks for the project's own, so it installs nothing.
  await executable(path.join(checkout, ".toolchain/pnpm/node_modules/.bin/pnpm"), recorder("pnpm"));
  const bin = path.join(base, "bin");
  await mkdir(bin);
  for (const command of REAL_COMMANDS) {
    const real = execFileSync("bash", ["-c", `command -v ${command}`], { encoding: "utf8" }).trim();
    await symlink(real, path.join(bin, command));
  }
  await symlink(process.execPath, path.join(bin, "node"));
  await executable(path.join(bin, "nx"), recorder("nx"));
  // apt-get fails its first install, so the setup also tries `apt-get update`.
  await executable(
    path.join(bin, "apt-get"),
    recorder("apt-get").replace(
      /exit 0\n$/,
      '[ "$1" = install ] && [ ! -e "$XZ_TEST_RECORDS.installed" ] && { : >"$XZ_TEST_RECORDS.installed"; exit 1; }\nexit 0\n',
    ),
  );
  await executable(
    path.join(bin, "id"),
    '#!/bin/bash\n[ "$1" = -u ] && { echo 0; exit 0; }\necho "uid=0(root) gid=0(root)"\n',
  );
});

afterAll(async () => {
  await rm(base, { recursive: true, force: true });
});

/** Runs the scratch checkout's start.sh with `args`; resolves its exit status and stderr. */
function start(args: readonly string[]): { status: number; stderr: string } {
  try {
    const stderr = execFileSync(
      path.join(base, "bin/bash"),
      ["-c", 'exec bash "$0" "$@" 2>&1 >/dev/null', path.join(checkout, "tools/start.sh"), ...args],
      {
        encoding: "utf8",
        env: {
          PATH: path.join(base, "bin"),
          HOME: path.join(base, "home"),
          XZATOMA_NO_LAUNCHER: "1",
          XZ_TEST_RECORDS: records,
        },
        stdio: ["ignore", "pipe", "pipe"],
      },
    );
    return { status: 0, stderr };
  } catch (error) {
    const failed = error as { status: number; stdout: string };
    return { status: failed.status, stderr: failed.stdout };
  }
}

it("passes start.sh's arguments to xzatoma only, never to apt-get", async () => {
  execFileSync(
    path.join(base, "bin/bash"),
    [
      path.join(checkout, "tools/start.sh"),
      "chat",
      "--provider",
      "ollama",
      "--model",
      "qwen2.5:7b",
    ],
    {
      env: {
        PATH: path.join(base, "bin"),
        HOME: path.join(base, "home"),
        XZATOMA_NO_LAUNCHER: "1",
        XZ_TEST_RECORDS: records,
      },
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  const lines = (await readFile(records, "utf8")).trim().split("\n");
  const aptGet = lines.filter((line) => line.startsWith("apt-get"));
  // The setup did reach apt-get, for what is really missing, and only for that.
  expect(aptGet).toEqual([
    "apt-get [install] [-y] [-q] [bubblewrap]",
    "apt-get [update] [-q]",
    "apt-get [install] [-y] [-q] [bubblewrap]",
  ]);
  expect(lines.filter((line) => line.startsWith("xzatoma"))).toEqual([
    "xzatoma [chat] [--provider] [ollama] [--model] [qwen2.5:7b]",
  ]);
  for (const line of lines.filter((line) => !line.startsWith("xzatoma"))) {
    expect(line).not.toMatch(/\[(chat|--provider|ollama|--model|qwen2\.5:7b)\]/);
  }
});

it("says what each setup step does and how long it took, instead of minutes of silence", async () => {
  await writeFile(records, "");
  const { status, stderr } = start(["--version"]);
  expect(status, stderr).toBe(0);
  const lines = stderr.split("\n");
  for (const step of [
    /^xzatoma-setup: Node and pnpm .*\.\.\.$/,
    /^xzatoma-setup: dependencies \(pnpm install\): done in \d+ s$/,
    /^xzatoma-setup: building the xzatoma command .*: done in \d+ s$/,
    /^xzatoma-setup: the embedded model Qwen2\.5-Coder 1\.5B \(1\.1 GB, downloaded once\): done in \d+ s$/,
    /^xzatoma-setup: ready in \d+ s$/,
  ]) {
    expect(
      lines.some((line) => step.test(line)),
      `${step}\n${stderr}`,
    ).toBe(true);
  }
  // The model step installs the default embedded model into the data directory's models/.
  expect((await readFile(records, "utf8")).split("\n")).toContain(
    "fetch-model [qwen2.5-coder-1.5b] [--install] [/nonexistent/models]",
  );
});

it("shows the end of a failed step's log and stops", async () => {
  const nx = path.join(base, "bin/nx");
  await rm(nx);
  await executable(
    nx,
    '#!/bin/bash\necho "src/x.ts(1,1): error TS2304: Cannot find name y."\nexit 1\n',
  );
  await writeFile(records, "");
  try {
    const { status, stderr } = start([]);
    expect(status).toBe(1);
    expect(stderr).toMatch(/building the xzatoma command .* failed after \d+ s \(exit 1\)/);
    expect(stderr).toContain("src/x.ts(1,1): error TS2304: Cannot find name y.");
    expect(stderr).toContain("'bash tools/test.sh' shows more");
    expect(await readFile(records, "utf8")).not.toContain("fetch-model");
  } finally {
    await rm(nx);
    await executable(nx, recorder("nx"));
  }
});

it("gives a launcher whose fix line runs as printed from a checkout path with a space", () => {
  // The setup above wrote the launcher; this checkout has no build, so it says how to make one.
  const launcher = path.join(checkout, ".toolchain/bin/xzatoma");
  let stderr = "";
  try {
    execFileSync(path.join(base, "bin/bash"), [launcher, "--version"], {
      encoding: "utf8",
      env: { PATH: path.join(base, "bin") },
      stdio: ["ignore", "pipe", "pipe"],
    });
  } catch (error) {
    stderr = (error as { stderr: string }).stderr;
  }
  const command = /; run: (.*)$/m.exec(stderr)?.[1];
  expect(command, stderr).toBeDefined();
  // The shell splits the printed command into the words it means, the path kept whole.
  const words = execFileSync(
    path.join(base, "bin/bash"),
    ["-c", `eval "set -- $1"; printf '%s\\0' "$@"`, "words", command ?? ""],
    { encoding: "utf8" },
  )
    .split("\0")
    .filter((word) => word !== "");
  expect(words).toEqual(["bash", path.join(checkout, "tools/start.sh"), "--version"]);
});
