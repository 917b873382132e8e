// Helpers for start.sh that need no Java and no npm package (plain Node):
//
//   node probe.mjs wait HOST PORT PID TIMEOUT_SECONDS
//       waits until the broker at HOST:PORT answers a Metadata request (v4, which Kafka 3.x
//       and 4.x both serve) listing itself and an active controller; exits 0 then, 2 when
//       the process PID is gone first, 1 at the deadline.
//   node probe.mjs free-port      prints a TCP port free on 127.0.0.1
//   node probe.mjs cluster-id     prints a new KRaft cluster id (base64url of 16 random bytes)
import { randomBytes } from "node:crypto";
import net from "node:net";

const [command, ...args] = process.argv.slice(2);

function metadataRequest() {
  const clientId = Buffer.from("xzatoma-kafka-probe");
  const body = Buffer.alloc(2 + 2 + 4 + 2 + clientId.length + 4 + 1);
  let at = 0;
  at = body.writeInt16BE(3, at); // api key: Metadata
  at = body.writeInt16BE(4, at); // api version
  at = body.writeInt32BE(1, at); // correlation id
  at = body.writeInt16BE(clientId.length, at);
  at += clientId.copy(body, at);
  at = body.writeInt32BE(-1, at); // topics: null, i.e. all
  body.writeInt8(0, at); // allow_auto_topic_creation: false
  const size = Buffer.alloc(4);
  size.writeInt32BE(body.length);
  return Buffer.concat([size, body]);
}

/** Resolves true when the broker answers with at least one broker and an active controller. */
function probe(host, port) {
  return new Promise((resolve) => {
    let received = Buffer.alloc(0);
    const socket = net.connect({ host, port });
    const done = (ready) => {
      socket.destroy();
      resolve(ready);
    };
    socket.setTimeout(5000, () => done(false));
    socket.on("error", () => done(false));
    socket.on("close", () => done(false));
    socket.on("connect", () => socket.write(metadataRequest()));
    socket.on("data", (chunk) => {
      received = Buffer.concat([received, chunk]);
      if (received.length < 4 || received.length < 4 + received.readInt32BE(0)) return;
      try {
        let at = 4 + 4 + 4; // size, correlation id, throttle time
        const brokers = received.readInt32BE(at);
        at += 4;
        for (let i = 0; i < brokers; i += 1) {
          at += 4; // node id
          at += 2 + received.readInt16BE(at); // host
          at += 4; // port
          const rack = received.readInt16BE(at);
          at += 2 + Math.max(rack, 0);
        }
        const clusterId = received.readInt16BE(at);
        at += 2 + Math.max(clusterId, 0);
        const controllerId = received.readInt32BE(at);
        done(brokers > 0 && controllerId >= 0);
      } catch {
        done(false);
      }
    });
  });
}

function alive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return error.code === "EPERM";
  }
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

if (command === "wait") {
  const [host, port, pid, timeoutSeconds] = args;
  const deadline = Date.now() + Number(timeoutSeconds) * 1000;
  for (;;) {
    if (await probe(host, Number(port))) process.exit(0);
    if (pid && !alive(Number(pid))) process.exit(2);
    if (Date.now() > deadline) process.exit(1);
    await sleep(250);
  }
} else if (command === "free-port") {
  const server = net.createServer();
  server.listen(0, "127.0.0.1", () => {
    const { port } = server.address();
    server.close(() => process.stdout.write(`${port}\n`));
  });
} else if (command === "cluster-id") {
  let id;
  do id = randomBytes(16).toString("base64url");
  while (id.startsWith("-"));
  process.stdout.write(`${id}\n`);
} else {
  console.error("usage: node probe.mjs wait HOST PORT PID TIMEOUT | free-port | cluster-id");
  process.exit(64);
}
