// Run by official_test.go: the official client (@ag-ui/client 1.0.0,
// pinned by package-lock.json) against two replicas of the example app on
// one Redis. A_URL and B_URL
// are the replicas' base URLs. It prints one JSON line of what it saw;
// the Go test asserts on it and on the replicas' logs.
import { HttpAgent } from "@ag-ui/client";

const A = process.env.A_URL + "/agents/loop";
const B = process.env.B_URL + "/agents/loop";
const user = (id) => ({ id, role: "user", content: "Plan a weekend in Oslo" });

async function run(agent, params = {}) {
  const out = { finished: [], runErrors: [], refused: [] };
  try {
    await agent.runAgent(params, {
      onRunFinishedEvent: ({ outcome }) => void out.finished.push(outcome),
      onRunErrorEvent: ({ event }) => void out.runErrors.push(event.code),
    });
  } catch (e) {
    // A refusal before the stream (a busy thread's 409) is the client's
    // error "HTTP <status>: <JSON body>"; its code is what the test reads.
    const msg = String(e?.message ?? e);
    const refusal = /^HTTP 409: (.*)$/s.exec(msg);
    if (refusal) out.refused.push(JSON.parse(refusal[1]).code);
    else out.error = msg;
  }
  return out;
}

const report = {};

// One client behind one address: the first request reaches A, the
// resume reaches B.
{
  const agent = new HttpAgent({ url: A, threadId: "official-1", initialMessages: [user("u-o1")] });
  const first = await run(agent);
  const [interrupt] = agent.pendingInterrupts;
  agent.url = B;
  const second = await run(agent, { resume: [{ interruptId: interrupt.id, status: "resolved", payload: { approved: true } }] });
  report.handoff = {
    first: first.finished,
    reason: interrupt.reason,
    second: second.finished,
    errors: [first.error, second.error].filter(Boolean),
    pendingAfter: agent.pendingInterrupts.length,
    tool: agent.messages.filter((m) => m.role === "tool").map((m) => m.content),
    text: agent.messages.filter((m) => m.role === "assistant" && m.content).map((m) => m.content).at(-1),
  };
}

// 50 clients that all saw the same interrupt answer it at once, spread
// over both replicas.
{
  const agent = new HttpAgent({ url: A, threadId: "official-2", initialMessages: [user("u-o2")] });
  await run(agent);
  const [interrupt] = agent.pendingInterrupts;
  const resumes = await Promise.all(
    Array.from({ length: 50 }, async (_, i) => {
      const tab = new HttpAgent({ url: i % 2 ? B : A, threadId: "official-2", initialMessages: structuredClone(agent.messages) });
      tab.pendingInterrupts = structuredClone(agent.pendingInterrupts);
      return run(tab, { resume: [{ interruptId: interrupt.id, status: "resolved", payload: { approved: true } }] });
    }),
  );
  report.concurrent = {
    finished: resumes.filter((r) => r.finished[0] === "success").length,
    refused: resumes.flatMap((r) => [...r.runErrors, ...r.refused]),
    errors: resumes.map((r) => r.error).filter(Boolean),
  };
}

console.log(JSON.stringify(report));
