// The protobuf encoding of every route: frames decoded with @ag-ui/proto
// 1.0.0 must carry the same events as the SSE run of the same input (ids
// and timestamps normalised), pass the official schemas, and drive the
// official client's whole pipeline when its transport negotiates protobuf.

import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import {
  startApp,
  TapAgent,
  run,
  assertSchemaValid,
  assertClean,
  fetchProto,
  fetchSSE,
  normalise,
  types,
  user,
  PROTO,
  missing,
} from "./harness.mjs";

let app;
before(async () => {
  app = await startApp();
});
after(async () => {
  await app?.stop();
});

const input = (extra = {}) => ({
  threadId: "t-proto",
  runId: "r-proto",
  protocolVersion: "1.0",
  state: {},
  messages: [user("protobuf says hello", "u1")],
  tools: [],
  context: [],
  forwardedProps: {},
  ...extra,
});

const cases = [
  ["echo", input()],
  ["editor", input({ state: { revision: 1, title: "x" } })],
  ["flaky", input()],
  ["approver", input()],
  ["approver", input({ resume: [{ interruptId: "delete-everything", status: "resolved" }] })],
  ["supervisor", input()],
  ["compat/supervisor", input()],
  ["hidden/supervisor", input()],
  ["tools", input()],
  ["tools", input({ state: { notes: "n".repeat(4000) } })],
];

for (const [route, body] of cases) {
  test(`${route}${body.resume ? " (resume)" : ""}: protobuf frames equal the SSE events`, async () => {
    const url = `${app.url}/agents/${route}`;
    const proto = await fetchProto(url, body);
    assert.equal(proto.status, 200);
    assert.equal(proto.contentType, PROTO);
    assertSchemaValid(proto.events);
    const sse = await fetchSSE(url, body);
    assert.equal(sse.status, 200);
    assert.equal(sse.contentType, "text/event-stream");
    assertSchemaValid(sse.events);
    for (const r of [proto, sse]) {
      assert.equal(r.headers.get("cache-control"), "no-cache");
      assert.equal(r.headers.get("x-accel-buffering"), "no");
    }
    assert.deepEqual(normalise(proto.events), normalise(sse.events), `proto: ${types(proto.events)}\nsse:   ${types(sse.events)}`);
  });
}

test("the official client's pipeline over protobuf reconstructs what SSE does", async () => {
  for (const route of ["echo", "editor", "supervisor", "tools"]) {
    const sent = [user("hello over protobuf", "u1")];
    const viaProto = new TapAgent({ url: `${app.url}/agents/${route}`, initialMessages: sent, accept: PROTO, threadId: "t" });
    const viaSSE = new TapAgent({ url: `${app.url}/agents/${route}`, initialMessages: sent, threadId: "t" });
    const p = await run(viaProto, { runId: "r" });
    const s = await run(viaSSE, { runId: "r" });
    assertClean(p);
    assertClean(s);
    assertSchemaValid(p.raw);
    assert.deepEqual(normalise(p.raw), normalise(s.raw), route);
    assert.deepEqual(normalise(viaProto.messages), normalise(viaSSE.messages), route);
    assert.deepEqual(viaProto.state, viaSSE.state, route);
  }
});

test("an older client asking for protobuf still gets SSE", async () => {
  // A pre-1.0 decoder reads a cancelled outcome as success, so the server
  // keeps such clients on SSE whatever they accept.
  const { protocolVersion, ...legacy } = input();
  const res = await fetch(`${app.url}/agents/echo`, {
    method: "POST",
    headers: { "Content-Type": "application/json", Accept: PROTO },
    body: JSON.stringify(legacy),
  });
  assert.equal(res.headers.get("content-type"), "text/event-stream");
  await res.text();
});

test("slow over protobuf: abortRun mid-stream, and the server sees the disconnect", async () => {
  const runId = "slow-proto-abort-" + Date.now();
  const agent = new TapAgent({ url: `${app.url}/agents/slow`, initialMessages: [user("go", "u1")], accept: PROTO });
  let deltas = 0;
  const out = await run(agent, { runId }, {
    onTextMessageContentEvent: () => {
      if (++deltas === 3) agent.abortRun();
    },
  });
  assert.equal(out.error, undefined);
  assert.ok(deltas >= 3 && deltas < 10, `${deltas} deltas applied`);
  assert.ok(!out.raw.some((e) => e.type === "RUN_FINISHED"));
  const line = await app.waitForLog((l) => l.includes('msg="agui run"') && l.includes(`run_id=${runId}`));
  assert.match(line, /outcome=disconnected/);
});

// resultsLast moves each TOOL_CALL_RESULT to just before the run's last
// event, in the order of its call's TOOL_CALL_START. The loop emits a tool's
// result as it completes, checking for completions between starting calls,
// so a fast tool's result may come before or after the next call's events;
// which one is a matter of scheduling, not of the encoding.
function resultsLast(events) {
  const start = new Map();
  events.forEach((e, i) => {
    if (e.type === "TOOL_CALL_START") start.set(e.toolCallId, i);
  });
  const results = events
    .filter((e) => e.type === "TOOL_CALL_RESULT")
    .sort((a, b) => (start.get(a.toolCallId) ?? -1) - (start.get(b.toolCallId) ?? -1));
  const rest = events.filter((e) => e.type !== "TOOL_CALL_RESULT");
  return [...rest.slice(0, -1), ...results, ...rest.slice(-1)];
}

test("loop: protobuf frames equal the SSE events, first run and resume", async (t) => {
  if ((await fetch(`${app.url}/agents/loop/capabilities`)).status === 404) {
    missing(t, "no /agents/loop in this build");
    return;
  }
  // The loop keeps a thread's pending approval on the server, so each
  // encoding gets its own thread.
  const url = `${app.url}/agents/loop`;
  const proto = await fetchProto(url, input({ threadId: "t-loop-proto" }));
  const sse = await fetchSSE(url, input({ threadId: "t-loop-sse" }));
  assertSchemaValid(proto.events);
  assert.deepEqual(normalise(resultsLast(proto.events)), normalise(resultsLast(sse.events)));
  // Resume each stream's own interrupt.
  const resume = (events) => {
    const [interrupt] = events.at(-1).outcome.interrupts;
    return input({
      threadId: events[0].threadId,
      runId: "r2",
      resume: [{ interruptId: interrupt.id, status: "resolved", payload: { approved: true } }],
    });
  };
  const proto2 = await fetchProto(url, resume(proto.events));
  const sse2 = await fetchSSE(url, resume(sse.events));
  assertSchemaValid(proto2.events);
  assert.equal(proto2.events.at(-1).type, "RUN_FINISHED");
  assert.deepEqual(normalise(resultsLast(proto2.events)), normalise(resultsLast(sse2.events)));
});
