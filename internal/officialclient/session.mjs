// Drives one thread through the official client (@ag-ui/client's
// HttpAgent: verification, chunk expansion, then apply) and reports what
// each run left: the raw events, the outcome, the client's warnings and
// errors, and the messages, state and pending interrupts it reconstructed.
//
// usage: node session.mjs < session.json > results.json
// session.json: {url, headers, threadId, messages, state, steps: [step]}
// step: {messages, tools, context, forwardedProps, resume, resumeAll, abortAfter}
import { HttpAgent } from "@ag-ui/client";
import { EventSchemas } from "@ag-ui/core/schemas";
import { tap } from "rxjs";

class TapAgent extends HttpAgent {
  raw = [];
  run(input) {
    return super.run(input).pipe(tap((ev) => this.raw.push(ev)));
  }
}

let text = "";
for await (const chunk of process.stdin) text += chunk;
const s = JSON.parse(text);
const agent = new TapAgent({
  url: s.url,
  headers: s.headers ?? {},
  threadId: s.threadId,
  initialMessages: s.messages ?? [],
  initialState: s.state ?? {},
});

const results = [];
for (const step of s.steps) {
  if (step.messages) for (const m of step.messages) agent.addMessage(m);
  const params = {};
  for (const k of ["tools", "context", "forwardedProps", "resume"]) if (step[k] !== undefined) params[k] = step[k];
  if (step.resumeAll !== undefined) {
    params.resume = agent.pendingInterrupts.map((p) => ({ interruptId: p.id, status: "resolved", payload: step.resumeAll }));
  }
  const out = { warnings: [], errors: [], runErrors: [], schemaErrors: [] };
  const { warn, error } = console;
  console.warn = (...a) => out.warnings.push(a.map(String).join(" "));
  console.error = (...a) => out.errors.push(a.map(String).join(" "));
  const from = agent.raw.length;
  try {
    await agent.runAgent(params, {
      onEvent: () => {
        if (step.abortAfter && agent.raw.length - from === step.abortAfter) agent.abortRun();
      },
      onRunErrorEvent: ({ event }) => {
        out.runErrors.push(event);
      },
      onRunFinishedEvent: ({ outcome }) => {
        out.outcome = outcome ?? "success";
      },
    });
  } catch (e) {
    out.error = String(e?.message ?? e);
  } finally {
    console.warn = warn;
    console.error = error;
  }
  out.events = agent.raw.slice(from);
  for (const [i, ev] of out.events.entries()) {
    const r = EventSchemas.safeParse(ev);
    if (!r.success) out.schemaErrors.push(`event #${i} ${ev.type}: ${r.error?.message}`);
  }
  out.messages = structuredClone(agent.messages);
  out.state = structuredClone(agent.state);
  out.pendingInterrupts = structuredClone(agent.pendingInterrupts ?? []);
  results.push(out);
}
process.stdout.write(JSON.stringify(results));
