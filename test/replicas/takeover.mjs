// Run by official_test.go: the official client (@ag-ui/client 1.0.0)
// resumes an approval on replica C (C_URL), which the Go test kills while
// the approved tool runs. The client prints "broken" with what it saw,
// waits for a line on stdin (sent once C's lease ran out), sends the same
// resume again through replica B (B_URL) and prints what it saw.
import { HttpAgent } from "@ag-ui/client";
import { createInterface } from "node:readline";

// The killed replica's broken stream also rejects a promise inside the
// client that nobody awaits; it is expected here, so it must not end the
// process.
const unhandled = [];
process.on("unhandledRejection", (e) => void unhandled.push(String(e?.message ?? e)));

const lines = createInterface({ input: process.stdin })[Symbol.asyncIterator]();

async function run(agent, params = {}) {
  const out = { finished: [], runErrors: [] };
  try {
    await agent.runAgent(params, {
      onRunFinishedEvent: ({ outcome }) => void out.finished.push(outcome),
      onRunErrorEvent: ({ event }) => void out.runErrors.push(event.code),
    });
  } catch (e) {
    out.error = String(e?.message ?? e);
  }
  return out;
}

const agent = new HttpAgent({
  url: process.env.C_URL + "/agents/loop",
  threadId: "official-3",
  initialMessages: [{ id: "u-o3", role: "user", content: "Plan a weekend in Oslo" }],
});
const first = await run(agent);
const [interrupt] = agent.pendingInterrupts;
const answer = { resume: [{ interruptId: interrupt.id, status: "resolved", payload: { approved: true } }] };
const cut = await run(agent, answer);
console.log(JSON.stringify({ first: first.finished, cut, unhandled }));

await lines.next(); // C's lease ran out
agent.url = process.env.B_URL + "/agents/loop";
const retried = await run(agent, answer);
console.log(JSON.stringify({
  retried,
  pendingAfter: agent.pendingInterrupts.length,
  tool: agent.messages.filter((m) => m.role === "tool").map((m) => m.content),
  text: agent.messages.filter((m) => m.role === "assistant" && m.content).map((m) => m.content).at(-1),
}));
process.exit(0);
