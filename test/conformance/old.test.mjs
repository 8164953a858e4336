// An older client: @ag-ui/client 0.0.58 (installed under the alias
// agui-old) sends no protocolVersion, so the server downgrades the stream.
// Every raw event must pass the 0.0.58 schemas, the old client must run
// it without error, and it must reconstruct what the agent means.

import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { createRequire } from "node:module";
import { HttpAgent as OldHttpAgent } from "agui-old";
import { tap } from "rxjs";
import { startApp, run, types, newMessages, user, missing } from "./harness.mjs";

// The old client's own @ag-ui/core (0.0.58), nested under the alias.
const oldCore = createRequire(import.meta.resolve("agui-old"))("@ag-ui/core");

let app;
before(async () => {
  app = await startApp();
});
after(async () => {
  await app?.stop();
});

class OldTapAgent extends OldHttpAgent {
  constructor(opts) {
    super(opts);
    this.raw = [];
  }
  run(input) {
    this.lastInput = input;
    return super.run(input).pipe(tap((ev) => this.raw.push(ev)));
  }
}

const agentFor = (route, opts = {}) => new OldTapAgent({ url: `${app.url}/agents/${route}`, ...opts });

function assertOldClean(agent, out) {
  if (out.error) throw out.error;
  assert.deepEqual(out.warnings, []);
  assert.deepEqual(out.errors, []);
  assert.ok(!("protocolVersion" in agent.lastInput), "the 0.0.58 client sends no protocolVersion");
  for (const [i, ev] of out.raw.entries()) {
    const r = oldCore.EventSchemas.safeParse(ev);
    assert.ok(r.success, `event #${i} ${ev.type} fails the 0.0.58 schema: ${r.error?.message}\n${JSON.stringify(ev)}`);
  }
  // The downgrade (agui.Downgrade) drops SUBAGENT_* events, which 0.0.58
  // rejects; subagentRunId tags and RUN_STARTED.protocolVersion stay, as
  // 0.0.58 passes them through (AG-UI 1.0).
  assert.ok(!out.raw.some((e) => e.type.startsWith("SUBAGENT_")), "SUBAGENT_* reached a pre-subagent client");
}

test("old client: echo", async () => {
  const sent = [user("old clients still stream")];
  const agent = agentFor("echo", { initialMessages: sent });
  const out = await run(agent);
  assertOldClean(agent, out);
  assert.deepEqual(
    newMessages(agent, sent).map((m) => [m.role, m.content]),
    [["assistant", "old clients still stream"]],
  );
});

for (const [route, want] of [
  ["supervisor", ["Two tasks: scope, then risks.", "About a day each.", "Plan ready."]],
  ["compat/supervisor", ["Two tasks: scope, then risks.", "About a day each.", "Plan ready."]],
  ["hidden/supervisor", ["Plan ready."]],
]) {
  test(`old client: ${route}`, async () => {
    const sent = [user("plan")];
    const agent = agentFor(route, { initialMessages: sent });
    const out = await run(agent);
    assertOldClean(agent, out);
    assert.deepEqual(
      newMessages(agent, sent).map((m) => m.content),
      want,
    );
  });
}

test("old client: approver interrupt and resume", async () => {
  const sent = [user("delete everything")];
  const agent = agentFor("approver", { initialMessages: sent });
  const first = await run(agent);
  assertOldClean(agent, first);
  assert.equal(first.raw.at(-1).type, "RUN_FINISHED");
  assert.equal(first.raw.at(-1).outcome?.type, "interrupt");
  assert.deepEqual(
    agent.pendingInterrupts.map((i) => i.id),
    ["delete-everything"],
  );
  const second = await run(agent, { resume: [{ interruptId: "delete-everything", status: "resolved" }] });
  assertOldClean(agent, second);
  assert.deepEqual(agent.lastInput.resume, [{ interruptId: "delete-everything", status: "resolved" }]);
  assert.deepEqual(
    newMessages(agent, sent).map((m) => m.content),
    ["Done."],
  );
});

test("old client: tools, filtered call absent and the result in state", async () => {
  const sent = [user("search")];
  const agent = agentFor("tools", { initialMessages: sent, initialState: { notes: "n".repeat(4000) } });
  const out = await run(agent);
  assertOldClean(agent, out);
  assert.ok(!JSON.stringify(out.raw).includes("audit_log"));
  assert.ok(types(out.raw).includes("STATE_DELTA"));
  assert.deepEqual(agent.state, { notes: "n".repeat(4000), search: { hits: ["Q3 plan", "Q4 plan"] } });
  assert.deepEqual(
    newMessages(agent, sent).map((m) => m.role),
    ["assistant", "tool", "assistant"],
  );
});

test("old client: editor and flaky", async () => {
  const editor = agentFor("editor", { initialMessages: [user("title")] });
  assertOldClean(editor, await run(editor));
  assert.deepEqual(editor.state, { revision: 1, title: "Q3 plan" });

  const flaky = agentFor("flaky", { initialMessages: [user("weather")] });
  const out = await run(flaky);
  assertOldClean(flaky, out);
  assert.equal(out.raw.at(-1).type, "RUN_ERROR");
  assert.equal(out.raw.at(-1).code, "AGENT_ERROR");
});

test("old client: loop with its approval interrupt and resume", async (t) => {
  if ((await fetch(`${app.url}/agents/loop/capabilities`)).status === 404) {
    missing(t, "no /agents/loop in this build");
    return;
  }
  const sent = [user("trip")];
  const agent = agentFor("loop", { initialMessages: sent });
  const first = await run(agent);
  assertOldClean(agent, first);
  assert.equal(agent.pendingInterrupts.length, 1);
  const second = await run(agent, { resume: [{ interruptId: agent.pendingInterrupts[0].id, status: "resolved", payload: { approved: true } }] });
  assertOldClean(agent, second);
  assert.equal(agent.messages.at(-1).content, "Oslo is sunny at 21°C. Your trip is settled as you decided.");
});
