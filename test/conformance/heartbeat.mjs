// Runs one HttpAgent (1.0.0) against the URL in argv[2] and prints what
// the client ended with as JSON: used by heartbeat_test.go to show that
// the official client ignores the server's heartbeat comments.
import { TapAgent, run, assertClean, assertSchemaValid, user } from "./harness.mjs";

const agent = new TapAgent({ url: process.argv[2], initialMessages: [user("wait for it", "u1")] });
const out = await run(agent);
let problem = null;
try {
  assertClean(out);
  assertSchemaValid(out.raw);
} catch (e) {
  problem = e.message;
}
console.log(JSON.stringify({ problem, types: out.raw?.map((e) => e.type), messages: agent.messages }));
