// The example app's chat page: one official @ag-ui/client HttpAgent per
// conversation, rendered from the client's own message list and state.
// Rebuild dist/app.js with `npm run build` after editing this file.
import { HttpAgent, randomUUID } from "@ag-ui/client";
import { resumableFetch } from "./resumable-fetch.js";

const $ = (id) => document.getElementById(id);
const ui = {
  picker: $("agent"),
  form: $("composer"),
  input: $("message"),
  send: $("send"),
  stop: $("stop"),
  messages: $("messages"),
  state: $("state"),
  status: $("status"),
  interrupt: $("interrupt"),
  interruptText: $("interrupt-text"),
};

let agent;
// Subagents by subagentRunId ({name, parent}); messages carry only the id.
let subagents = new Map();
let stopping = false;

function setStatus(text, kind = "") {
  ui.status.textContent = text;
  ui.status.className = kind;
}

function setRunning(running) {
  document.body.dataset.running = String(running);
  ui.stop.disabled = !running;
  const blocked = running || agent.pendingInterrupts.length > 0;
  ui.send.disabled = blocked;
  ui.input.disabled = blocked;
  ui.picker.disabled = running;
}

function textOf(content) {
  if (typeof content === "string") return content;
  if (Array.isArray(content)) {
    return content.map((p) => (p.type === "text" ? p.text : `[${p.type}]`)).join("");
  }
  return "";
}

function bubble(m) {
  const li = document.createElement("li");
  li.dataset.role = m.role;
  li.dataset.id = m.id;
  let text = textOf(m.content);
  for (const call of m.toolCalls ?? []) {
    text += `${text ? "\n" : ""}→ ${call.function.name}(${call.function.arguments})`;
  }
  if (m.role === "tool") text = `← ${text}`;
  li.textContent = text;
  return li;
}

// renderMessages rebuilds the list, putting consecutive messages of one
// subagent invocation into a group labelled with the subagent's name.
function renderMessages(messages) {
  const items = [];
  let group;
  for (const m of messages) {
    if (m.role === "activity") continue;
    if (!m.subagentRunId) {
      group = undefined;
      items.push(bubble(m));
      continue;
    }
    if (group?.dataset.subagentRunId !== m.subagentRunId) {
      group = document.createElement("li");
      group.className = "subagent";
      group.dataset.subagentRunId = m.subagentRunId;
      const label = document.createElement("div");
      label.className = "subagent-name";
      label.textContent = subagentPath(m.subagentRunId);
      group.append(label, document.createElement("ul"));
      items.push(group);
    }
    group.lastChild.append(bubble(m));
  }
  ui.messages.replaceChildren(...items);
  ui.messages.lastElementChild?.scrollIntoView({ block: "end" });
}

// subagentPath names an invocation with its ancestors: "planner › estimator".
function subagentPath(id) {
  const names = [];
  for (let s = subagents.get(id); s && names.length < 16; s = subagents.get(s.parent)) {
    names.unshift(s.name);
  }
  return names.join(" › ") || "subagent";
}

function renderState(state) {
  ui.state.textContent = JSON.stringify(state ?? {}, null, 2);
}

// interruptLine describes one interrupt: its message, and for a tool
// approval the call it would let run, so the user sees what they approve.
function interruptLine(i) {
  const text = i.message ?? i.reason;
  const tool = i.metadata?.toolName;
  if (typeof tool !== "string") return text;
  const args = typeof i.metadata.arguments === "string" ? i.metadata.arguments : "";
  return `${text}\n${tool}(${args})`;
}

function renderInterrupts() {
  const pending = agent.pendingInterrupts;
  ui.interrupt.hidden = pending.length === 0;
  ui.interruptText.textContent = pending.map(interruptLine).join("\n");
}

function selectAgent(route) {
  agent?.abortRun();
  // resumableFetch rejoins a resumable route's run (/agents/detached)
  // when the network drops mid-answer; other routes pass through it.
  agent = new HttpAgent({ url: route, fetch: resumableFetch() });
  subagents = new Map();
  // Tool calls already ended; their arguments are final. A resumed run
  // announces the call it resumes again (START, ARGS, END), so that its
  // result names a call of its own run; the client would append those ARGS
  // to the arguments it already holds.
  const ended = new Set();
  agent.subscribe({
    onToolCallArgsEvent: ({ event }) => (ended.has(event.toolCallId) ? { stopPropagation: true } : undefined),
    onToolCallEndEvent: ({ event }) => {
      ended.add(event.toolCallId);
    },
    onMessagesChanged: ({ messages }) => renderMessages(messages),
    onStateChanged: ({ state }) => renderState(state),
    onSubagentStartedEvent: ({ event }) => {
      subagents.set(event.subagentRunId, { name: event.name, parent: event.parentSubagentRunId });
    },
    onRunErrorEvent: ({ event }) => {
      setStatus(`error: ${event.message}${event.code ? ` (${event.code})` : ""}`, "error");
    },
  });
  renderMessages([]);
  renderState({});
  renderInterrupts();
  setRunning(false);
  setStatus("ready");
}

// run starts one run and reports how it ended. A RUN_ERROR has already set
// the status by the time runAgent resolves.
async function run(params) {
  stopping = false;
  setRunning(true);
  setStatus("running…");
  try {
    await agent.runAgent(params);
    if (stopping) setStatus("stopped");
    else if (agent.pendingInterrupts.length > 0) setStatus("waiting for approval");
    else if (ui.status.className !== "error") setStatus("done");
  } catch (err) {
    setStatus(stopping ? "stopped" : `failed: ${err.message}`, stopping ? "" : "error");
  } finally {
    renderInterrupts();
    setRunning(false);
    if (!ui.input.disabled) ui.input.focus();
  }
}

ui.form.addEventListener("submit", (e) => {
  e.preventDefault();
  const content = ui.input.value.trim();
  if (!content || agent.isRunning) return;
  ui.input.value = "";
  agent.addMessage({ id: randomUUID(), role: "user", content });
  run();
});

ui.stop.addEventListener("click", () => {
  stopping = true;
  agent.abortRun();
});

// answer is the resume entry for one interrupt. An interrupt whose
// responseSchema asks for a boolean "approved" (the agent loop's tool
// approval) gets that answer as its payload; any other is resolved or
// cancelled.
function answer(i, approved) {
  if (i.responseSchema?.properties?.approved?.type === "boolean") {
    return { interruptId: i.id, status: "resolved", payload: { approved } };
  }
  return { interruptId: i.id, status: approved ? "resolved" : "cancelled" };
}

// Approve and Reject answer every pending interrupt on a new run.
for (const [id, approved] of [["approve", true], ["reject", false]]) {
  $(id).addEventListener("click", () => {
    const resume = agent.pendingInterrupts.map((i) => answer(i, approved));
    ui.interrupt.hidden = true;
    run({ resume });
  });
}

ui.picker.addEventListener("change", () => selectAgent(ui.picker.value));

async function start() {
  // GET /agents lists every agent route the app serves.
  let routes = ["/agents/echo"];
  try {
    const res = await fetch("/agents", { headers: { Accept: "application/json" } });
    if (res.ok) routes = (await res.json()).routes;
  } catch {
    // Keep the default: the page still works against the echo agent.
  }
  ui.picker.replaceChildren(
    ...routes.map((r) => new Option(r.replace(/^\/agents\//, ""), r, false, r === "/agents/echo")),
  );
  selectAgent(ui.picker.value);
}

start();
