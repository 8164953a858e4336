// Drives a loop agent whose approvals expire almost at once (served by
// expiry_test.go at the URL in argv[2]) with the official HttpAgent
// (1.0.0), and prints {"problem": null} when every check passed, else the
// first failure:
//   - the interrupt carries expiresAt, and every event passes the schemas;
//   - the client refuses to send a "resolved" answer to the expired
//     interrupt, with its own message, before any request;
//   - a "cancelled" answer (what the client allows) is an ordinary
//     rejection: the call gets a rejected result and the run finishes;
//   - a client without that gate that approves anyway gets RUN_ERROR
//     APPROVAL_EXPIRED, after the call's rejected result.
import assert from "node:assert/strict";
import { isInterruptExpired } from "@ag-ui/client";
import { TapAgent, run, assertClean, assertSchemaValid, fetchSSE, types, user } from "./harness.mjs";

const url = process.argv[2];

async function pause() {
  let requests = 0;
  const agent = new TapAgent({
    url,
    initialMessages: [user("book it")],
    fetch: (u, init) => {
      requests++;
      return fetch(u, init);
    },
  });
  const first = await run(agent);
  assertClean(first);
  assertSchemaValid(first.raw);
  assert.equal(first.finished[0].outcome, "interrupt");
  const [pending] = agent.pendingInterrupts;
  assert.ok(!Number.isNaN(Date.parse(pending.expiresAt)), `expiresAt ${pending.expiresAt}`);
  return { agent, pending, requests: () => requests };
}

let problem = null;
try {
  // The official client, with its resume gate.
  const { agent, pending, requests } = await pause();
  assert.ok(isInterruptExpired(pending), "the client sees the interrupt expired");
  const before = requests();
  const refused = await run(agent, { resume: [{ interruptId: pending.id, status: "resolved", payload: { approved: true } }] });
  assert.match(String(refused.error?.message), /expired at .* and can no longer be answered/);
  assert.equal(requests(), before, "no request for a refused resume");

  const cancelled = await run(agent, { resume: [{ interruptId: pending.id, status: "cancelled" }] });
  assertClean(cancelled);
  assertSchemaValid(cancelled.raw);
  assert.equal(cancelled.finished[0].outcome, "success");
  const result = agent.messages.find((m) => m.role === "tool" && m.toolCallId === pending.toolCallId);
  assert.equal(JSON.parse(result.content).error, "rejected");

  // A client without the gate approves anyway.
  const other = await pause();
  const input = other.agent.prepareRunAgentInput({});
  input.resume = [{ interruptId: other.pending.id, status: "resolved", payload: { approved: true } }];
  const late = await fetchSSE(url, input);
  assertSchemaValid(late.events);
  assert.deepEqual(types(late.events), ["RUN_STARTED", "TOOL_CALL_START", "TOOL_CALL_END", "TOOL_CALL_RESULT", "RUN_ERROR"]);
  assert.equal(late.events.at(-1).code, "APPROVAL_EXPIRED");
  assert.equal(JSON.parse(late.events[3].content).error, "rejected");
} catch (e) {
  problem = e.stack ?? String(e);
}
console.log(JSON.stringify({ problem }));
