// The loop's approvals with edited arguments, driven by the official
// @ag-ui/client 1.0.0 HttpAgent over SSE on the example app's /agents/loop
// route: the edited call is what runs and what the client's messages
// show, and an edit that does not fit the tool's schema is refused before
// anything runs.

import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { startApp, TapAgent, run, assertSchemaValid, assertClean, types, newMessages, user } from "./harness.mjs";

let app;
before(async () => {
  app = await startApp();
});
after(async () => {
  await app?.stop();
});

// pause runs /agents/loop until it waits for the approval of book_trip.
async function pause() {
  const sent = [user("a trip to Oslo, please")];
  const agent = new TapAgent({ url: `${app.url}/agents/loop`, initialMessages: sent });
  const first = await run(agent);
  assertClean(first);
  assert.equal(first.finished[0].outcome, "interrupt");
  const [pending] = agent.pendingInterrupts;
  assert.equal(pending.reason, "tool_approval");
  assert.ok(pending.responseSchema.properties.arguments, "the response schema offers edited arguments");
  return { agent, sent, pending };
}

test("loop: an approval with edited arguments runs the edited call, and the client shows it", async () => {
  const { agent, sent, pending } = await pause();
  const second = await run(agent, {
    resume: [{ interruptId: pending.id, status: "resolved", payload: { approved: true, arguments: { city: "Bergen", nights: 3 } } }],
  });
  assertClean(second);
  assertSchemaValid(second.raw);
  assert.equal(second.finished[0].outcome, "success");
  // AG-UI has no event that replaces a call's arguments: the client, which
  // holds the call as the model asked, gets a MESSAGES_SNAPSHOT with the
  // edited one, and the arguments are not streamed again.
  assert.ok(types(second.raw).includes("MESSAGES_SNAPSHOT"), types(second.raw).join(" "));
  assert.ok(!second.raw.some((e) => e.type === "TOOL_CALL_ARGS" && e.toolCallId === pending.toolCallId));

  const msgs = newMessages(agent, sent);
  const turns = msgs.filter((m) => m.role === "assistant" && m.toolCalls?.length);
  assert.equal(turns.length, 1, "one assistant turn with the calls");
  const book = turns[0].toolCalls.find((c) => c.id === pending.toolCallId);
  assert.deepEqual(JSON.parse(book.function.arguments), { city: "Bergen", nights: 3 });
  const results = msgs.filter((m) => m.role === "tool" && m.toolCallId === book.id);
  assert.equal(results.length, 1, "one result for the edited call");
  assert.equal(results[0].content, "booked 3 nights in Bergen");
  assert.equal(msgs.at(-1).role, "assistant");
});

test("loop: an edit that does not fit the tool's schema is refused with BAD_RESUME; a valid answer then runs", async () => {
  const { agent, sent, pending } = await pause();
  const bad = await run(agent, {
    resume: [{ interruptId: pending.id, status: "resolved", payload: { approved: true, arguments: { city: "Bergen", nights: "three" } } }],
  });
  assertSchemaValid(bad.raw);
  assert.deepEqual(types(bad.raw), ["RUN_STARTED", "RUN_ERROR"]);
  assert.equal(bad.raw.at(-1).code, "BAD_RESUME");
  assert.match(bad.raw.at(-1).message, /edited arguments/);

  // Nothing ran: the approval is still pending on the server.
  agent.pendingInterrupts = [pending];
  const good = await run(agent, {
    resume: [{ interruptId: pending.id, status: "resolved", payload: { approved: true, arguments: { city: "Bergen", nights: 4 } } }],
  });
  assertClean(good);
  assert.equal(good.finished[0].outcome, "success");
  const result = newMessages(agent, sent).find((m) => m.role === "tool" && m.toolCallId === pending.toolCallId);
  assert.equal(result.content, "booked 4 nights in Bergen");
});
