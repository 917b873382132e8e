// The setup shared by the end-to-end test files that run the built `xzatoma` against a
// scripted model server each test starts: test directories (with files the tests read) for
// the whole file, and each test's server closed after it.
import { rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, afterEach, beforeAll } from "vitest";
import { makeTestDirectories, type TestDirectories } from "./workspace.test-support.js";

/** The part of a scripted model server {@link runTestBed} uses. */
interface ModelServer {
  readonly url: string;
  close(): Promise<void>;
}

/** What {@link runTestBed} gives a test file; read it inside tests and hooks only. */
export interface RunTestBed<Server extends ModelServer> extends TestDirectories {
  /** Makes `server` the running test's model server, closed after the test; returns it. */
  readonly serve: (server: Server) => Server;
  /** The command's whole environment: PATH, HOME and OLLAMA_HOST at the test's server. */
  readonly env: () => Record<string, string>;
}

/**
 * Registers the file's hooks: before all tests, directories named after `name`, with `files`
 * (name to content) written into the workspace; after each test, its server closes; after
 * all, the directories are removed.
 */
export function runTestBed<Server extends ModelServer>(
  name: string,
  files: Readonly<Record<string, string>> = {},
): RunTestBed<Server> {
  let directories: TestDirectories | undefined;
  let server: Server | undefined;

  function made(): TestDirectories {
    if (directories === undefined)
      throw new Error(`the test bed ${name} is made in beforeAll; read it inside tests`);
    return directories;
  }

  beforeAll(async () => {
    directories = await makeTestDirectories(`${name}-`);
    for (const [file, content] of Object.entries(files))
      await writeFile(path.join(directories.workspace, file), content);
  });

  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  afterAll(async () => {
    if (directories) await rm(directories.base, { recursive: true, force: true });
  });

  return {
    get base() {
      return made().base;
    },
    get workspace() {
      return made().workspace;
    },
    get home() {
      return made().home;
    },
    serve(started) {
      server = started;
      return started;
    },
    env() {
      if (server === undefined) throw new Error("no model server: the test calls serve() first");
      return { PATH: process.env["PATH"] ?? "", HOME: made().home, OLLAMA_HOST: server.url };
    },
  };
}
