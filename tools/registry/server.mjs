// Runs Verdaccio for tools/registry/start.sh with a configuration built here, in memory, from
// the environment (see start.sh for the variables), so the upstream registry's address is
// never written to a file. Prints nothing on success; Verdaccio logs to stdout.
import { createRequire } from "node:module";
import path from "node:path";

function required(name) {
  const value = process.env[name];
  if (!value) {
    console.error(`registry: ${name} is not set (run tools/registry/start.sh, not this file)`);
    process.exit(1);
  }
  return value;
}

const serverDirectory = required("REGISTRY_SERVER_DIR");
const work = required("REGISTRY_WORK");
const port = Number(required("REGISTRY_PORT"));
const uplink = process.env.REGISTRY_UPLINK ?? "";
const scope = process.env.REGISTRY_SCOPE ?? "@xzatoma";

const { runServer } = createRequire(path.join(serverDirectory, "package.json"))("verdaccio");

// The project's own scope is served only from what was published here, never proxied: a
// package of that name on the upstream registry can never stand in for a local build.
// Everything else (zod, execa, ...) comes through the upstream registry when one is given.
const proxy = uplink ? { proxy: "upstream" } : {};
const configuration = {
  configPath: path.join(work, "config.yaml"),
  storage: path.join(work, "storage"),
  listen: `127.0.0.1:${port}`,
  uplinks: uplink ? { upstream: { url: uplink, timeout: "60s", maxage: "30m" } } : {},
  auth: { htpasswd: { file: path.join(work, "htpasswd"), max_users: 10 } },
  packages: {
    [`${scope}/*`]: { access: "$all", publish: "$all", unpublish: "$all" },
    "@*/*": { access: "$all", publish: "$authenticated", ...proxy },
    "**": { access: "$all", publish: "$authenticated", ...proxy },
  },
  server: { keepAliveTimeout: 60 },
  max_body_size: "200mb",
  publish: { allow_offline: true },
  web: { enable: false },
  log: { type: "stdout", format: "pretty", level: "warn" },
};

runServer(configuration).then(
  (app) => {
    app.listen(port, "127.0.0.1", () => {
      console.log(`registry: listening on http://127.0.0.1:${port}`);
    });
  },
  (error) => {
    console.error("registry: Verdaccio did not start:", error);
    process.exit(1);
  },
);
