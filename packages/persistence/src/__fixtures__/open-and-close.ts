// Child process of the concurrency test: waits for the shared start time (argv[3], epoch
// ms) so all children race, then opens (and so migrates) the history and closes it.
import { openHistory } from "../open-history.ts";

const startAt = Number(process.argv[3] ?? 0);
while (Date.now() < startAt) {
  // Spin: a timer would wake the children less precisely together.
}
openHistory({ path: process.argv[2] ?? "" }).close();
