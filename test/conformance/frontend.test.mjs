// The loop's AG-UI features driven by the official @ag-ui/client 1.0.0:
// a frontend tool round trip (the client runs the tool the model called,
// appends its result and runs again), a state round trip (state the agent
// predicts reaches the client; state the client changes reaches the model)
// and the thread read back after a reload. Every run passes the client's
// pipeline without a warning and every raw event the official schemas.

import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { startApp, TapAgent, run, assertSchemaValid, assertClean, types, user } from "./harness.mjs";

let app;
before(async () => {
  app = await startApp();
});
after(async () => {
  await app?.stop();
});

const agentFor = (route, opts = {}) => new TapAgent({ url: `${app.url}/agents/${route}`, ...opts });

const themeTool = {
  name: "set_theme_color",
  description: "Sets the page's theme colour",
  parameters: {
    type: "object",
    properties: { color: { type: "string", enum: ["teal", "tomato"] } },
    required: ["color"],
  },
};

test("frontend: the client runs the model's tool call, and the next run answers with its result", async () => {
  const sent = [user("make the page teal")];
  const agent = agentFor("frontend", { initialMessages: sent, initialState: { keep: 1 } });
  const first = await run(agent, { tools: [themeTool] });
  assertClean(first);
  assertSchemaValid(first.raw);
  assert.equal(first.finished[0].outcome, "success");
  const t = types(first.raw);
  assert.equal(t.at(-2), "TOOL_CALL_END", "the run ends right after the frontend call");
  assert.ok(!t.includes("TOOL_CALL_RESULT"), "the server does not answer the client's tool");
  const asst = agent.messages.find((m) => m.role === "assistant" && m.toolCalls?.length);
  assert.ok(asst, "the client holds the call");
  const [call] = asst.toolCalls;
  assert.equal(call.function.name, "set_theme_color");
  assert.deepEqual(JSON.parse(call.function.arguments), { color: "teal" });
  // The colour was predicted into the state while the arguments streamed.
  assert.deepEqual(agent.state, { keep: 1, theme: "teal" });

  // The client runs the tool and sends its result with the next run.
  agent.addMessage({ id: "tool-result-1", role: "tool", toolCallId: call.id, content: "theme is now teal (#008080)" });
  const second = await run(agent, { tools: [themeTool] });
  assertClean(second);
  assertSchemaValid(second.raw);
  assert.equal(second.finished[0].outcome, "success");
  assert.ok(!types(second.raw).includes("MESSAGES_SNAPSHOT"), "the client's history was complete");
  const last = agent.messages.at(-1);
  assert.equal(last.role, "assistant");
  assert.match(last.content, /theme is now teal \(#008080\)/);
  assert.deepEqual(
    agent.messages.map((m) => m.role),
    ["user", "assistant", "tool", "assistant"],
  );
});

test("frontend: state the client changes reaches the model", async () => {
  const agent = agentFor("frontend", { initialMessages: [user("colour?")], initialState: {} });
  const first = await run(agent, { tools: [themeTool] });
  assertClean(first);
  assert.deepEqual(agent.state, { theme: "teal" });
  const call = agent.messages.find((m) => m.role === "assistant").toolCalls[0];
  agent.setState({ ...agent.state, theme: "tomato", note: "set by the page" });
  agent.addMessage({ id: "tool-result-2", role: "tool", toolCallId: call.id, content: "ok" });
  const second = await run(agent, { tools: [themeTool] });
  assertClean(second);
  assertSchemaValid(second.raw);
  assert.match(agent.messages.at(-1).content, /The shared state's theme is tomato\./);
  assert.deepEqual(agent.state, { theme: "tomato", note: "set by the page" }, "keys the agent does not model stay");
});

test("frontend: a reloaded page reads the thread back, and a short history gets MESSAGES_SNAPSHOT", async () => {
  const agent = agentFor("frontend", { initialMessages: [user("go")] });
  assertClean(await run(agent, { tools: [themeTool] }));
  const call = agent.messages.find((m) => m.role === "assistant").toolCalls[0];
  agent.addMessage({ id: "tool-result-3", role: "tool", toolCallId: call.id, content: "done" });
  assertClean(await run(agent, { tools: [themeTool] }));

  const res = await fetch(`${app.url}/agents/frontend/threads/${agent.threadId}`);
  assert.equal(res.status, 200);
  const history = await res.json();
  assert.equal(history.threadId, agent.threadId);
  assert.deepEqual(
    history.messages.map((m) => [m.id, m.role]),
    agent.messages.map((m) => [m.id, m.role]),
  );
  assert.deepEqual(history.state, { theme: "teal" });

  // A second tab on the same thread that holds only its new message.
  const tab = agentFor("frontend", { threadId: agent.threadId, initialMessages: [user("again")] });
  const out = await run(tab, { tools: [] });
  assertClean(out);
  assertSchemaValid(out.raw);
  assert.equal(out.raw[1].type, "MESSAGES_SNAPSHOT");
  const held = new Set(tab.messages.map((m) => m.id));
  for (const m of agent.messages) assert.ok(held.has(m.id), `the second tab lacks ${m.role} message ${m.id}`);
  assert.equal(tab.messages.at(-1).role, "assistant");

  const missing = await fetch(`${app.url}/agents/frontend/threads/no-such-thread`);
  assert.equal(missing.status, 404);
  assert.equal((await missing.json()).code, "THREAD_NOT_FOUND");
});
