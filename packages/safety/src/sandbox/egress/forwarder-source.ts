// The forwarder: a small Node program that runs inside the sandbox as the parent of the
// command. It listens on 127.0.0.1 of the sandbox's own network namespace, points the
// command's proxy variables there, and carries every connection to the egress proxy over
// the two pipes it inherited (the seccomp filter refuses Unix sockets; pipes need none).
// It decides nothing: the proxy outside checks every request. It is plain CommonJS handed
// to `node -e`, so nothing has to be bound into the sandbox but the Node binary. Its frame
// format is channel-frames.ts's.

/** Exit status of the forwarder when it could not start the command's proxy. */
export const FORWARDER_FAILED_STATUS = 125;

/** The environment variables that point a command at the forwarder. */
export const PROXY_VARIABLES: readonly string[] = [
  "HTTP_PROXY",
  "HTTPS_PROXY",
  "ALL_PROXY",
  "http_proxy",
  "https_proxy",
  "all_proxy",
  "npm_config_proxy",
  "npm_config_https_proxy",
  "YARN_HTTP_PROXY",
  "YARN_HTTPS_PROXY",
  "PIP_PROXY",
  "CARGO_HTTP_PROXY",
];

/** Variables emptied so that no host bypasses the proxy (there is no other way out). */
export const NO_PROXY_VARIABLES: readonly string[] = ["NO_PROXY", "no_proxy", "npm_config_noproxy"];

export const FORWARDER_SOURCE = `"use strict";
const net = require("node:net");
const os = require("node:os");
const { spawn } = require("node:child_process");
const OPEN = 1, DATA = 2, END = 3, RESET = 4, PAUSE = 5, RESUME = 6;
const HEADER = 9, MAX = 65536;
const PROXY = ${JSON.stringify(PROXY_VARIABLES)};
const NO_PROXY = ${JSON.stringify(NO_PROXY_VARIABLES)};
const argv = process.argv.slice(1);
const command = argv.slice(2);
const input = new net.Socket({ fd: Number(argv[0]), readable: true, writable: false });
const output = new net.Socket({ fd: Number(argv[1]), readable: false, writable: true });
const connections = new Map();
let nextId = 1;
let blocked = false;
let broken = false;

function send(type, id, payload) {
  if (broken) return;
  const length = payload ? payload.length : 0;
  const frame = Buffer.allocUnsafe(HEADER + length);
  frame.writeUInt8(type, 0);
  frame.writeUInt32BE(id, 1);
  frame.writeUInt32BE(length, 5);
  if (payload) payload.copy(frame, HEADER);
  if (!output.write(frame) && !blocked) {
    blocked = true;
    for (const c of connections.values()) c.socket.pause();
  }
}

function breakChannel() {
  if (broken) return;
  broken = true;
  for (const c of connections.values()) c.socket.destroy();
  connections.clear();
  server.close();
  input.destroy();
  output.destroy();
}

function receive(type, id, payload) {
  const c = connections.get(id);
  if (c === undefined) return;
  if (type === DATA) {
    if (!c.socket.write(payload) && !c.askedPause) {
      c.askedPause = true;
      send(PAUSE, id);
      c.socket.once("drain", () => {
        c.askedPause = false;
        send(RESUME, id);
      });
    }
  } else if (type === END) {
    c.endReceived = true;
    c.socket.end();
  } else if (type === RESET) {
    c.reset = true;
    connections.delete(id);
    c.socket.destroy();
  } else if (type === PAUSE) {
    c.paused = true;
    c.socket.pause();
  } else if (type === RESUME) {
    c.paused = false;
    if (!blocked) c.socket.resume();
  }
}

let buffered = Buffer.alloc(0);
input.on("data", (chunk) => {
  buffered = buffered.length === 0 ? chunk : Buffer.concat([buffered, chunk]);
  let offset = 0;
  while (buffered.length - offset >= HEADER) {
    const type = buffered.readUInt8(offset);
    const id = buffered.readUInt32BE(offset + 1);
    const length = buffered.readUInt32BE(offset + 5);
    if (length > MAX) return breakChannel();
    if (buffered.length - offset < HEADER + length) break;
    const payload = buffered.subarray(offset + HEADER, offset + HEADER + length);
    offset += HEADER + length;
    receive(type, id, payload);
  }
  buffered = buffered.subarray(offset);
});
input.on("end", breakChannel);
input.on("error", breakChannel);
output.on("error", breakChannel);
output.on("drain", () => {
  blocked = false;
  for (const c of connections.values()) if (!c.paused) c.socket.resume();
});

const server = net.createServer({ allowHalfOpen: true }, (socket) => {
  if (broken) return socket.destroy();
  const id = nextId;
  nextId = nextId >= 0xffffffff ? 1 : nextId + 1;
  const c = { socket, paused: false, askedPause: false, endSent: false, endReceived: false, reset: false };
  connections.set(id, c);
  send(OPEN, id);
  if (blocked) socket.pause();
  socket.on("data", (chunk) => {
    for (let at = 0; at < chunk.length; at += MAX) send(DATA, id, chunk.subarray(at, at + MAX));
  });
  socket.on("end", () => {
    c.endSent = true;
    send(END, id);
  });
  socket.on("error", () => socket.destroy());
  socket.on("close", () => {
    if (connections.get(id) !== c) return;
    connections.delete(id);
    if (!c.reset && !(c.endSent && c.endReceived)) send(RESET, id);
  });
});

function fail(message, status) {
  process.stderr.write("xzatoma sandbox: " + message + "\\n");
  process.exit(status);
}

function run(port) {
  const env = Object.assign({}, process.env);
  const url = "http://127.0.0.1:" + port;
  for (const name of PROXY) env[name] = url;
  for (const name of NO_PROXY) env[name] = "";
  env.NODE_USE_ENV_PROXY = "1";
  if (env.XZATOMA_NODE_OPTIONS !== undefined) env.NODE_OPTIONS = env.XZATOMA_NODE_OPTIONS;
  delete env.XZATOMA_NODE_OPTIONS;
  if (command.length === 0) fail("no command to run", 2);
  const child = spawn(command[0], command.slice(1), { stdio: "inherit", env });
  child.on("error", (error) =>
    fail("cannot run " + command[0] + ": " + error.message, error.code === "ENOENT" ? 127 : 126),
  );
  for (const signal of ["SIGTERM", "SIGINT", "SIGHUP", "SIGQUIT"]) {
    process.on(signal, () => child.kill(signal));
  }
  child.on("exit", (code, signal) =>
    process.exit(code !== null ? code : 128 + (os.constants.signals[signal] || 0)),
  );
}

server.on("error", (error) =>
  fail("the network forwarder could not listen: " + error.message, ${FORWARDER_FAILED_STATUS}),
);
server.listen(0, "127.0.0.1", () => run(server.address().port));
`;

// The command's NODE_OPTIONS (a `--require` of a workspace file, say) must not run in the
// forwarder, which is started before the command: the shell moves it aside and the
// forwarder gives it back to the command.
const SET_NODE_OPTIONS_ASIDE = [
  'if [ -n "${NODE_OPTIONS+set}" ]; then',
  "XZATOMA_NODE_OPTIONS=$NODE_OPTIONS; export XZATOMA_NODE_OPTIONS; unset NODE_OPTIONS; fi",
  'exec "$@"',
].join("\n");

/**
 * The argv that runs `command` under the forwarder: `sh -c … node -e SOURCE -- IN OUT
 * command...`, where IN and OUT are the descriptor numbers the sandbox inherits (read
 * from the proxy, write to it).
 */
export function forwarderArguments(
  programs: { readonly shell: string; readonly node: string },
  descriptors: { readonly fromProxy: number; readonly toProxy: number },
  command: readonly string[],
): string[] {
  return [
    programs.shell,
    "-c",
    SET_NODE_OPTIONS_ASIDE,
    "xzatoma-forwarder",
    programs.node,
    "-e",
    FORWARDER_SOURCE,
    "--",
    String(descriptors.fromProxy),
    String(descriptors.toProxy),
    ...command,
  ];
}
