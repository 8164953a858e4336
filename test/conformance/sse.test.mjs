// Every route of examples/gin-app driven by the official @ag-ui/client
// 1.0.0 HttpAgent over SSE. Each run must pass the client's own pipeline
// (compatibility boundary, enforcement, verification, reducer) without a
// warning, every raw event must pass @ag-ui/core's EventSchemas, and the
// messages and state the client reconstructs must be what the agent means.

import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import {
  startApp,
  TapAgent,
  run,
  assertSchemaValid,
  assertClean,
  types,
  newMessages,
  user,
  capabilities,
  AgentCapabilitiesSchema,
} from "./harness.mjs";

let app;
before(async () => {
  app = await startApp(["-metrics"]);
});
after(async () => {
  await app?.stop();
});

const agentFor = (route, opts = {}) => new TapAgent({ url: `${app.url}/agents/${route}`, ...opts });

// strip drops what the client adds to a message so that tests compare
// what the agent produced.
const roleAndContent = (m) => ({ role: m.role, content: m.content, ...(m.subagentRunId ? { tagged: true } : {}) });

test("echo: the words of the input come back, one delta per word", async () => {
  const sent = [user("the quick brown fox")];
  const agent = agentFor("echo", { initialMessages: sent });
  const out = await run(agent);
  assertClean(out);
  assertSchemaValid(out.raw);
  assert.equal(agent.lastInput.protocolVersion, "1.0", "the 1.0 client declares its version");
  assert.equal(out.raw[0].type, "RUN_STARTED");
  assert.equal(out.raw[0].protocolVersion, "1.0", "the server declares its own version");
  assert.deepEqual(types(out.raw), [
    "RUN_STARTED",
    "TEXT_MESSAGE_START",
    "TEXT_MESSAGE_CONTENT",
    "TEXT_MESSAGE_CONTENT",
    "TEXT_MESSAGE_CONTENT",
    "TEXT_MESSAGE_CONTENT",
    "TEXT_MESSAGE_END",
    "RUN_FINISHED",
  ]);
  assert.deepEqual(
    out.raw.filter((e) => e.type === "TEXT_MESSAGE_CONTENT").map((e) => e.delta),
    ["the ", "quick ", "brown ", "fox"],
  );
  assert.deepEqual(newMessages(agent, sent).map(roleAndContent), [{ role: "assistant", content: "the quick brown fox" }]);
  assert.equal(out.finished[0].outcome, "success");
});

test("echo: a second turn on the same thread gets a new message id", async () => {
  const agent = agentFor("echo", { initialMessages: [user("one")] });
  assertClean(await run(agent));
  agent.messages.push(user("two"));
  assertClean(await run(agent));
  const replies = agent.messages.filter((m) => m.role === "assistant");
  assert.deepEqual(
    replies.map((m) => m.content),
    ["one", "two"],
  );
  assert.notEqual(replies[0].id, replies[1].id);
});

test("private/echo: refused without the bearer token, served with it", async () => {
  const refused = await run(agentFor("private/echo", { initialMessages: [user("hi")] }));
  assert.ok(refused.error, "runAgent must reject a 401");
  assert.match(refused.error.message, /HTTP 401/);
  const agent = agentFor("private/echo", { initialMessages: [user("hi there")], headers: { Authorization: "Bearer demo" } });
  const out = await run(agent);
  assertClean(out);
  assertSchemaValid(out.raw);
  assert.equal(agent.messages.at(-1).content, "hi there");
});

test("editor: reasoning, message and the draft state inside one step", async () => {
  const sent = [user("name my draft")];
  const agent = agentFor("editor", { initialMessages: sent, initialState: { revision: 4, title: "old" } });
  const out = await run(agent);
  assertClean(out);
  assertSchemaValid(out.raw);
  const t = types(out.raw);
  assert.equal(t[1], "STEP_STARTED");
  assert.equal(t.at(-2), "STEP_FINISHED");
  assert.ok(out.raw.every((e) => !e.type.startsWith("STEP_") || e.stepName === "draft"));
  assert.ok(t.includes("REASONING_START") && t.includes("REASONING_END"));
  assert.deepEqual(agent.state, { revision: 5, title: "Q3 plan" });
  assert.deepEqual(newMessages(agent, sent).map(roleAndContent), [
    { role: "reasoning", content: "The user wants a title." },
    { role: "assistant", content: 'Naming it "Q3 plan".' },
  ]);
  // A second run continues from the state the client now holds.
  assertClean(await run(agent));
  assert.deepEqual(agent.state, { revision: 6, title: "Q3 plan" });
});

test("remote: the editor proxied through the Go client over loopback, as the editor itself", async () => {
  const sent = [user("name my draft")];
  const state = { revision: 4, title: "old" };
  const proxied = agentFor("remote", { initialMessages: sent, initialState: state });
  const out = await run(proxied);
  assertClean(out);
  assertSchemaValid(out.raw);
  const direct = agentFor("editor", { initialMessages: sent, initialState: state });
  const want = await run(direct);
  assert.deepEqual(types(out.raw), types(want.raw));
  assert.deepEqual(proxied.state, { revision: 5, title: "Q3 plan" });
  assert.deepEqual(newMessages(proxied, sent).map(roleAndContent), newMessages(direct, sent).map(roleAndContent));
});

test("flaky: RUN_ERROR with code AGENT_ERROR after a partial answer", async () => {
  const sent = [user("weather?")];
  const agent = agentFor("flaky", { initialMessages: sent });
  const out = await run(agent);
  assertSchemaValid(out.raw);
  assert.deepEqual(out.warnings, []);
  assert.equal(out.raw.at(-1).type, "RUN_ERROR");
  assert.equal(out.raw.at(-1).code, "AGENT_ERROR");
  assert.equal(out.runErrors.length, 1);
  assert.equal(out.runErrors[0].code, "AGENT_ERROR");
  assert.equal(out.finished.length, 0, "no RUN_FINISHED after RUN_ERROR");
  assert.deepEqual(newMessages(agent, sent).map(roleAndContent), [{ role: "assistant", content: "Looking that up." }]);
});

test("approver: interrupt, then resume in a second request (resolved and cancelled)", async () => {
  for (const [status, reply] of [
    ["resolved", "Done."],
    ["cancelled", "Cancelled."],
  ]) {
    const sent = [user("delete everything")];
    const agent = agentFor("approver", { initialMessages: sent });
    const first = await run(agent);
    assertClean(first);
    assertSchemaValid(first.raw);
    assert.equal(first.finished[0].outcome, "interrupt");
    assert.equal(agent.pendingInterrupts.length, 1);
    const pending = agent.pendingInterrupts[0];
    assert.equal(pending.id, "delete-everything");
    assert.equal(pending.reason, "tool_approval");
    assert.equal(pending.message, "Delete everything?");
    assert.deepEqual(newMessages(agent, sent), []);

    // The client itself refuses a plain run while the interrupt is open.
    const refused = await run(agent);
    assert.match(String(refused.error?.message), /pending interrupt/);

    const second = await run(agent, { resume: [{ interruptId: pending.id, status, payload: { by: "test" } }] });
    assertClean(second);
    assertSchemaValid(second.raw);
    assert.deepEqual(second.raw[0].input?.resume ?? agent.lastInput.resume, [
      { interruptId: pending.id, status, payload: { by: "test" } },
    ]);
    assert.equal(second.finished[0].outcome, "success");
    assert.deepEqual(agent.pendingInterrupts, []);
    assert.deepEqual(newMessages(agent, sent).map(roleAndContent), [{ role: "assistant", content: reply }]);
  }
});

// The supervisor's planner runs a nested estimator; the routes differ only
// in the SubagentVisibility transformer their group applies.
const plannerText = "Two tasks: scope, then risks.";
const estimatorText = "About a day each.";
const parentText = "Plan ready.";

test("supervisor (emitted): subagent lifecycle events and tagged messages", async () => {
  const sent = [user("plan the quarter")];
  const agent = agentFor("supervisor", { initialMessages: sent });
  const started = [];
  const finished = [];
  const out = await run(agent, {}, {
    onSubagentStartedEvent: ({ event }) => {
      started.push(event);
    },
    onSubagentFinishedEvent: ({ event }) => {
      finished.push(event);
    },
  });
  assertClean(out);
  assertSchemaValid(out.raw);
  assert.deepEqual(
    started.map((e) => e.name),
    ["planner", "estimator"],
  );
  const [planner, estimator] = started;
  assert.equal(estimator.parentSubagentRunId, planner.subagentRunId, "the estimator is nested in the planner");
  assert.deepEqual(
    finished.map((e) => e.subagentRunId),
    [estimator.subagentRunId, planner.subagentRunId],
  );
  assert.deepEqual(finished[1].result, { tasks: 2 });
  const msgs = newMessages(agent, sent);
  assert.deepEqual(
    msgs.map((m) => [m.content, m.subagentRunId]),
    [
      [plannerText, planner.subagentRunId],
      [estimatorText, estimator.subagentRunId],
      [parentText, undefined],
    ],
  );
});

test("compat/supervisor (inline): no SUBAGENT_* events, all three messages", async () => {
  const sent = [user("plan the quarter")];
  const agent = agentFor("compat/supervisor", { initialMessages: sent });
  const out = await run(agent);
  assertClean(out);
  assertSchemaValid(out.raw);
  assert.ok(!out.raw.some((e) => e.type.startsWith("SUBAGENT_")), types(out.raw).join(","));
  assert.deepEqual(
    newMessages(agent, sent).map((m) => m.content),
    [plannerText, estimatorText, parentText],
  );
});

test("hidden/supervisor: only the parent's own message", async () => {
  const sent = [user("plan the quarter")];
  const agent = agentFor("hidden/supervisor", { initialMessages: sent });
  const out = await run(agent);
  assertClean(out);
  assertSchemaValid(out.raw);
  assert.ok(!out.raw.some((e) => e.type.startsWith("SUBAGENT_") || "subagentRunId" in e), JSON.stringify(out.raw));
  assert.deepEqual(newMessages(agent, sent).map(roleAndContent), [{ role: "assistant", content: parentText }]);
});

const hits = { hits: ["Q3 plan", "Q4 plan"] };

// toolsChecks asserts what every run of the tools route shows: the search
// call and its result, the audit_log call filtered out without a trace.
function toolsChecks(agent, sent, out) {
  assertClean(out);
  assertSchemaValid(out.raw);
  assert.ok(!JSON.stringify(out.raw).includes("audit_log"), "the filtered call's name leaked");
  const starts = out.raw.filter((e) => e.type === "TOOL_CALL_START");
  assert.deepEqual(
    starts.map((e) => e.toolCallName),
    ["search"],
  );
  const known = new Set([starts[0].toolCallId]);
  for (const e of out.raw.filter((e) => "toolCallId" in e)) {
    assert.ok(known.has(e.toolCallId), `an unknown tool call id leaked: ${JSON.stringify(e)}`);
  }
  const msgs = newMessages(agent, sent);
  assert.deepEqual(
    msgs.map((m) => m.role),
    ["assistant", "tool", "assistant"],
  );
  assert.deepEqual(
    msgs[0].toolCalls.map((c) => [c.function.name, JSON.parse(c.function.arguments)]),
    [["search", { query: "quarterly plan" }]],
  );
  assert.equal(msgs[1].toolCallId, starts[0].toolCallId);
  assert.deepEqual(JSON.parse(msgs[1].content), hits);
  assert.equal(msgs[2].content, "Found 2 plans.");
}

test("tools: the filtered call is absent, the result lands in state", async () => {
  const sent = [user("search")];
  const agent = agentFor("tools", { initialMessages: sent });
  const out = await run(agent);
  toolsChecks(agent, sent, out);
  assert.deepEqual(agent.state, { search: hits });
});

test("tools: STATE_DELTA patches against the client's state apply without warnings", async () => {
  // A large state makes a delta smaller than a snapshot, so the
  // transformer sends patches computed against what the client sent.
  const notes = "n".repeat(4000);
  const sent = [user("search")];
  const agent = agentFor("tools", { initialMessages: sent, initialState: { notes, search: { hits: [] } } });
  const out = await run(agent);
  toolsChecks(agent, sent, out);
  assert.ok(out.raw.some((e) => e.type === "STATE_DELTA"), `no STATE_DELTA: ${types(out.raw).join(",")}`);
  assert.ok(!out.raw.some((e) => e.type === "STATE_SNAPSHOT"));
  assert.ok(!out.warnings.some((w) => w.includes("Failed to apply")));
  assert.deepEqual(agent.state, { notes, search: hits });

  // Again from a state without the key: the patch must add it.
  const agent2 = agentFor("tools", { initialMessages: sent, initialState: { notes } });
  const out2 = await run(agent2);
  toolsChecks(agent2, sent, out2);
  assert.ok(out2.raw.some((e) => e.type === "STATE_DELTA"));
  assert.deepEqual(agent2.state, { notes, search: hits });
});

test("slow: abortRun mid-stream ends the run, and the server sees the disconnect", async () => {
  const runId = "slow-abort-" + Date.now();
  const agent = agentFor("slow", { initialMessages: [user("go")] });
  let deltas = 0;
  const t0 = Date.now();
  const out = await run(agent, { runId }, {
    onTextMessageContentEvent: () => {
      if (++deltas === 3) agent.abortRun();
    },
  });
  assert.ok(Date.now() - t0 < 10000, "the aborted run took too long to end");
  assert.equal(out.error, undefined, "an abort is not a failure for the client");
  // Deltas already parsed from the chunk that carried the third may still
  // be applied; nothing read after the abort is.
  assert.ok(deltas >= 3 && deltas < 10, `${deltas} deltas applied`);
  assertSchemaValid(out.raw);
  // The client ends an aborted run with its own RUN_ERROR (code "abort");
  // nothing terminal came from the server.
  assert.ok(!out.raw.some((e) => e.type === "RUN_FINISHED"));
  assert.deepEqual(
    out.raw.filter((e) => e.type === "RUN_ERROR").map((e) => e.code),
    ["abort"],
  );
  assert.equal(agent.messages.at(-1).content, Array.from({ length: deltas }, (_, i) => `${i + 1} `).join(""));
  // The server's run log line records the cancellation.
  const line = await app.waitForLog((l) => l.includes("msg=\"agui run\"") && l.includes(`run_id=${runId}`));
  assert.match(line, /outcome=disconnected/);
  assert.match(line, /code=DISCONNECTED/);
  // A follow-up request sees it too: the app's Prometheus metrics count
  // the run as ended by a disconnect, and nothing is left in flight.
  const metrics = await (await fetch(`${app.url}/metrics`)).text();
  assert.match(metrics, /^agui_runs_ended_total\{agent="slow",code="DISCONNECTED",outcome="error",route="\/agents\/slow"\} [1-9]/m);
  assert.match(metrics, /^agui_runs_in_flight\{agent="slow",route="\/agents\/slow"\} 0$/m);
});

test("loop: the agent loop with a scripted model, its approval interrupt and resume", async () => {
  for (const [status, payload] of [
    ["resolved", { approved: true }],
    ["cancelled", undefined],
  ]) {
    const sent = [user("a trip to Oslo, please")];
    const agent = agentFor("loop", { initialMessages: sent });
    const first = await run(agent);
    assertClean(first);
    assertSchemaValid(first.raw);
    const fin = first.raw.at(-1);
    assert.equal(fin.type, "RUN_FINISHED");
    assert.equal(first.finished[0].outcome, "interrupt");
    assert.deepEqual(fin.usage, [{ inputTokens: 120, outputTokens: 40, totalTokens: 160 }]);
    const msgs = newMessages(agent, sent);
    assert.deepEqual(
      msgs.map((m) => m.role),
      ["reasoning", "assistant", "tool"],
    );
    assert.equal(msgs[0].content, "The user wants a trip: check the weather, then book.");
    assert.equal(msgs[1].content, "Let me check the weather and book your trip.");
    const [weather, book] = msgs[1].toolCalls;
    assert.deepEqual(
      [weather.function.name, JSON.parse(weather.function.arguments)],
      ["get_weather", { city: "Oslo" }],
    );
    assert.deepEqual(
      [book.function.name, JSON.parse(book.function.arguments)],
      ["book_trip", { city: "Oslo", nights: 2 }],
    );
    assert.equal(msgs[2].toolCallId, weather.id, "only the call that needs no approval has run");
    assert.deepEqual(JSON.parse(msgs[2].content), { city: "Oslo", sky: "sunny", tempC: 21 });
    assert.equal(agent.pendingInterrupts.length, 1);
    const [pending] = agent.pendingInterrupts;
    assert.equal(pending.reason, "tool_approval");
    assert.equal(pending.toolCallId, book.id);

    const second = await run(agent, { resume: [{ interruptId: pending.id, status, ...(payload && { payload }) }] });
    assertClean(second);
    assertSchemaValid(second.raw);
    assert.equal(second.finished[0].outcome, "success");
    assert.deepEqual(agent.pendingInterrupts, []);
    const after = newMessages(agent, sent);
    const bookResult = after.find((m) => m.role === "tool" && m.toolCallId === book.id);
    assert.ok(bookResult, `${status}: no result for book_trip`);
    if (status === "resolved") assert.equal(bookResult.content, "booked 2 nights in Oslo");
    else assert.notEqual(bookResult.content, "booked 2 nights in Oslo", "a cancelled call must not run");
    assert.equal(after.at(-1).role, "assistant");
    assert.equal(after.at(-1).content, "Oslo is sunny at 21°C. Your trip is settled as you decided.");
  }
});

test("capabilities: every route answers the official 1.0 shape", async () => {
  const routes = ["echo", "editor", "flaky", "approver", "supervisor", "compat/supervisor", "hidden/supervisor", "tools", "slow", "loop", "frontend", "remote", "a2ui", "plan"];
  for (const r of routes) {
    const caps = await capabilities(app.url, r);
    assert.equal(caps.status, 200, r);
    const parsed = AgentCapabilitiesSchema.safeParse(caps.body);
    assert.ok(parsed.success, `${r}: ${parsed.error?.message}`);
    assert.equal(caps.body.transport?.streaming, true, r);
    // What the chat page greets a newcomer with: a description, and
    // suggested prompts in the schema's extension object.
    assert.equal(typeof parsed.data.identity?.description, "string", r);
    assert.ok(parsed.data.custom?.suggestions?.length > 0, `${r}: no suggestions`);
  }
  assert.equal((await capabilities(app.url, "editor")).body.state?.deltas, true);
  assert.equal((await capabilities(app.url, "frontend")).body.state?.deltas, true, "the loop over state declares state");
});

test("concurrency: 60 simultaneous runs over every route, each rebuilt exactly", async () => {
  const routes = [
    ["echo", (i) => `echo number ${i}`],
    ["editor", () => 'Naming it "Q3 plan".'],
    ["supervisor", () => parentText],
    ["compat/supervisor", () => parentText],
    ["hidden/supervisor", () => parentText],
    ["tools", () => "Found 2 plans."],
  ];
  const warnings = [];
  const ow = console.warn;
  const oe = console.error;
  console.warn = (...a) => warnings.push(a.join(" "));
  console.error = (...a) => warnings.push(a.join(" "));
  try {
    const jobs = Array.from({ length: 60 }, async (_, i) => {
      const [route, expect] = routes[i % routes.length];
      const agent = agentFor(route, { initialMessages: [user(`echo number ${i}`)] });
      await agent.runAgent();
      assertSchemaValid(agent.raw);
      assert.equal(agent.messages.at(-1).content, expect(i), `${route} #${i}`);
      return agent.raw.at(-1).type;
    });
    const ends = await Promise.all(jobs);
    assert.ok(ends.every((t) => t === "RUN_FINISHED"), ends.join(","));
  } finally {
    console.warn = ow;
    console.error = oe;
  }
  assert.deepEqual(warnings, []);
});
