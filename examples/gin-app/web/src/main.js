// The example app's chat page: one official @ag-ui/client HttpAgent per
// conversation, rendered from the client's own message list and state.
// Rebuild dist/app.js with `npm run build` after editing this file.
import { HttpAgent, randomUUID } from "@ag-ui/client";
import { resumableFetch } from "./resumable-fetch.js";
import { renderSurface, surfacesFrom } from "./a2ui.js";

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
  threadsPanel: $("threads-panel"),
  threads: $("threads"),
  newThread: $("new-thread"),
};

// The routes that serve the loop's thread API (loop.ThreadsHandler): the
// panel lists their threads; other routes have none to list.
const threadRoutes = new Set(["/agents/loop", "/agents/frontend", "/agents/mcp"]);

let agent;
// route is the agent route of the conversation shown.
let route;
// Subagents by subagentRunId ({name, parent}); messages carry only the id.
let subagents = new Map();
let stopping = false;
// The selected route's greeting (from its capabilities), the shared state
// shown, and the button pressed on each A2UI surface (by surface id).
let greeting;
let shownState = {};
let pressed = new Map();

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
    text += `${text ? "\n" : ""}→ ${call.function.name}(${callArgs(call.function.arguments)})`;
  }
  if (m.role === "tool") text = `← ${text}`;
  li.textContent = text;
  return li;
}

// callArgs shows a tool call's arguments: a whole A2UI surface (which the
// conversation paints) by its id and size, other long ones cut short.
function callArgs(args, max = 160) {
  if (args.length <= max) return args;
  try {
    const a = JSON.parse(args);
    if (typeof a?.surfaceId === "string" && Array.isArray(a.components)) {
      return `surface "${a.surfaceId}", ${a.components.length} components`;
    }
  } catch {
    // Still streaming: not JSON yet.
  }
  return `${args.slice(0, max)}…`;
}

// renderMessages rebuilds the list, putting consecutive messages of one
// subagent invocation into a group labelled with the subagent's name. A2UI
// surfaces show where they first appear (an a2ui-surface activity, or a
// tool result carrying a2ui_operations); a plan in the shared state shows
// as a progress list below the conversation, where the user's eyes are;
// an empty conversation shows the route's greeting.
function renderMessages(messages) {
  const items = [];
  let group;
  const { surfaces, firstShown } = surfacesFrom(messages);
  for (const m of messages) {
    if (m.role === "activity" || (m.role === "tool" && firstShown.has(m.id))) {
      const id = firstShown.get(m.id);
      if (id && surfaces.has(id)) items.push(surfaceItem(surfaces.get(id)));
      continue;
    }
    if (m.role === "tool" && surfaces.size > 0 && isSurfaceResult(m)) continue;
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
  const progress = progressItem(shownState);
  if (progress) items.push(progress);
  if (!messages.some((m) => m.role !== "activity")) items.push(greetingItem());
  ui.messages.replaceChildren(...items);
  ui.messages.lastElementChild?.scrollIntoView({ block: "end" });
}

// isSurfaceResult reports whether a tool message carries A2UI operations
// (its surface shows where it first appeared).
function isSurfaceResult(m) {
  return typeof m.content === "string" && m.content.startsWith('{"a2ui_operations"');
}

// surfaceItem is an A2UI surface in the conversation. A button press runs
// the agent again with the user action in forwardedProps, as the AG-UI
// Dojo's A2UI pages send it ({"a2uiAction": {"userAction": ...}}).
function surfaceItem(surface) {
  const li = document.createElement("li");
  li.className = "surface";
  li.append(
    renderSurface(surface, (userAction) => {
      if (agent.isRunning) return;
      pressed.set(surface.id, userAction.sourceComponentId);
      renderMessages(agent.messages);
      run({ forwardedProps: { a2uiAction: { userAction } } });
    }),
  );
  // Once pressed, a surface's buttons are spent: the pressed one stays
  // marked.
  const chosen = pressed.get(surface.id);
  if (chosen !== undefined) {
    for (const b of li.querySelectorAll("button")) {
      b.disabled = true;
      if (b.dataset.componentId === chosen) b.dataset.pressed = "true";
    }
  }
  return li;
}

// progressItem is the progress list of a plan in the shared state
// ({"steps": [{"description", "status"}]}, the shape of the AG-UI Dojo's
// agentic generative UI), or undefined when the state holds none.
function progressItem(state) {
  const steps = Array.isArray(state?.steps) ? state.steps.filter((s) => typeof s?.description === "string") : [];
  if (steps.length === 0) return undefined;
  const li = document.createElement("li");
  li.className = "progress";
  const done = steps.filter((s) => s.status === "completed").length;
  const head = document.createElement("div");
  head.className = "progress-head";
  head.textContent = done === steps.length ? `Plan done: ${done} of ${steps.length} steps` : `Working: ${done} of ${steps.length} steps done`;
  const list = document.createElement("ol");
  list.setAttribute("aria-label", "Progress");
  for (const s of steps) {
    const item = document.createElement("li");
    item.dataset.status = s.status === "completed" ? "completed" : "pending";
    item.textContent = s.description;
    list.append(item);
  }
  li.append(head, list);
  return li;
}

// greetingItem greets a first-time user with the route's description and
// the prompts its capabilities suggest (custom.suggestions: AG-UI's
// capabilities have no field for them, so the example app serves them in
// the schema's extension object); a click sends one.
function greetingItem() {
  const li = document.createElement("li");
  li.className = "greeting";
  const title = document.createElement("h2");
  title.textContent = greeting?.name ?? route.replace(/^\/agents\//, "");
  const about = document.createElement("p");
  about.textContent = greeting?.description ?? "Type a message below to start.";
  li.append(title, about);
  const suggestions = greeting?.suggestions ?? [];
  if (suggestions.length > 0) {
    const row = document.createElement("div");
    row.className = "suggestions";
    row.setAttribute("role", "group");
    row.setAttribute("aria-label", "Suggestions");
    for (const s of suggestions) {
      const b = document.createElement("button");
      b.type = "button";
      b.textContent = s.title;
      b.title = s.message;
      b.addEventListener("click", () => send(s.message));
      row.append(b);
    }
    li.append(row);
  }
  return li;
}

// loadGreeting reads the route's description and suggested prompts from
// GET <route>/capabilities.
async function loadGreeting(shown) {
  let caps;
  try {
    const res = await fetch(`${shown}/capabilities`, { headers: { Accept: "application/json" } });
    if (!res.ok) return;
    caps = await res.json();
  } catch {
    return; // no greeting beyond the default
  }
  if (shown !== route) return;
  const suggestions = (Array.isArray(caps.custom?.suggestions) ? caps.custom.suggestions : []).filter(
    (s) => typeof s?.title === "string" && typeof s?.message === "string",
  );
  greeting = { name: caps.identity?.name, description: caps.identity?.description, suggestions };
  renderMessages(agent.messages);
}

// subagentPath names an invocation with its ancestors: "planner › estimator".
function subagentPath(id) {
  const names = [];
  for (let s = subagents.get(id); s && names.length < 16; s = subagents.get(s.parent)) {
    names.unshift(s.name);
  }
  return names.join(" › ") || "subagent";
}

// renderState shows the shared state; a theme in it (the frontend agent
// predicts one while the model streams its call) colours the page.
function renderState(state) {
  shownState = state ?? {};
  ui.state.textContent = JSON.stringify(shownState, null, 2);
  if (typeof state?.theme === "string") applyTheme(state.theme);
  renderMessages(agent.messages);
}

function applyTheme(color) {
  if (!themeColors.includes(color)) return;
  document.documentElement.style.setProperty("--theme", color);
  document.body.dataset.theme = color;
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

// Frontend tools: the page offers them with every run (RunAgentInput.tools);
// the agent's model may call them, and the page runs the call and sends the
// result with the next run.
const themeColors = ["teal", "tomato", "rebeccapurple", "goldenrod"];
const frontendTools = {
  set_theme_color: {
    tool: {
      name: "set_theme_color",
      description: "Changes the colour of the page's theme.",
      parameters: {
        type: "object",
        properties: { color: { type: "string", enum: themeColors, description: "a CSS colour name" } },
        required: ["color"],
      },
    },
    run(args) {
      const color = themeColors.includes(args.color) ? args.color : themeColors[0];
      applyTheme(color);
      return `The page's theme colour is now ${color}.`;
    },
  },
};
const offered = Object.values(frontendTools).map((t) => t.tool);

// unansweredCalls returns the calls of the conversation's last assistant
// message that name a frontend tool and have no result yet.
function unansweredCalls(messages) {
  const last = messages.findLast((m) => m.role === "assistant");
  if (!last?.toolCalls) return [];
  const answered = new Set(messages.filter((m) => m.role === "tool").map((m) => m.toolCallId));
  return last.toolCalls.filter((c) => frontendTools[c.function.name] && !answered.has(c.id));
}

// runFrontendCalls runs the model's calls of the page's tools and appends
// their results; it reports whether there were any.
function runFrontendCalls() {
  const calls = unansweredCalls(agent.messages);
  for (const call of calls) {
    let content;
    try {
      content = frontendTools[call.function.name].run(JSON.parse(call.function.arguments || "{}"));
    } catch (err) {
      content = `error: ${err.message}`;
    }
    agent.addMessage({ id: randomUUID(), role: "tool", toolCallId: call.id, content });
  }
  return calls.length > 0;
}

// remember puts the route and thread in the page's address, so that a
// reload opens the same thread.
function remember() {
  const q = new URLSearchParams({ agent: route, thread: agent.threadId });
  history.replaceState(null, "", `?${q}`);
}

// loadThread fills the conversation from GET <route>/threads/{threadId},
// which the agent loop's routes serve; other routes keep an empty one.
async function loadThread(threadId) {
  try {
    const res = await fetch(`${route}/threads/${encodeURIComponent(threadId)}`, { headers: { Accept: "application/json" } });
    if (!res.ok) return;
    const thread = await res.json();
    agent.setMessages(thread.messages ?? []);
    if (thread.state) agent.setState(thread.state);
    setStatus("thread loaded");
  } catch {
    // No history: the thread starts empty.
  }
}

function selectAgent(to, threadId) {
  agent?.abortRun();
  route = to;
  // resumableFetch rejoins a resumable route's run (/agents/detached)
  // when the network drops mid-answer; other routes pass through it.
  agent = new HttpAgent({ url: route, fetch: resumableFetch(), ...(threadId ? { threadId } : {}) });
  subagents = new Map();
  greeting = undefined;
  shownState = {};
  pressed = new Map();
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
    onCustomEvent: ({ event }) => {
      // A loop route with titles on names its thread after the first
      // exchange (loop.WithTitles).
      if (event.name === "thread.title" && typeof event.value?.title === "string") {
        document.title = `${event.value.title} · agui-go example`;
        refreshThreads();
      }
    },
    onRunErrorEvent: ({ event }) => {
      setStatus(`error: ${event.message}${event.code ? ` (${event.code})` : ""}`, "error");
    },
  });
  renderState({});
  renderInterrupts();
  setRunning(false);
  setStatus("ready");
  document.title = "agui-go example";
  refreshThreads();
  loadGreeting(route);
}

// refreshThreads lists the caller's threads of the route, newest activity
// first, from GET <route>/threads.
async function refreshThreads() {
  const shown = route;
  if (!threadRoutes.has(shown)) {
    ui.threadsPanel.hidden = true;
    return;
  }
  let page;
  try {
    const res = await fetch(`${shown}/threads?limit=50`, { headers: { Accept: "application/json" } });
    if (!res.ok) throw new Error(`${res.status}`);
    page = await res.json();
  } catch {
    page = { threads: [] };
  }
  if (shown !== route) return;
  ui.threadsPanel.hidden = false;
  ui.threads.replaceChildren(...page.threads.map(threadItem));
}

// threadItem is one thread of the panel: open it, rename it, delete it.
function threadItem(t) {
  const li = document.createElement("li");
  li.dataset.threadId = t.id;
  if (t.id === agent.threadId) li.className = "current";
  const open = document.createElement("button");
  open.type = "button";
  open.className = "open";
  open.textContent = t.title || t.id;
  open.title = `${t.messageCount} messages, last active ${new Date(t.updatedAt).toLocaleString()}`;
  open.addEventListener("click", () => openThread(t.id));
  const rename = document.createElement("button");
  rename.type = "button";
  rename.className = "rename";
  rename.textContent = "Rename";
  rename.addEventListener("click", async () => {
    const title = prompt("Rename the thread", t.title || "");
    if (title === null) return;
    await threadRequest("PATCH", t.id, { title: title.trim() });
    refreshThreads();
  });
  const del = document.createElement("button");
  del.type = "button";
  del.className = "delete";
  del.textContent = "Delete";
  del.addEventListener("click", async () => {
    if (agent.isRunning) return;
    await threadRequest("DELETE", t.id);
    if (t.id === agent.threadId) {
      selectAgent(route);
      remember();
    } else {
      refreshThreads();
    }
  });
  li.append(open, rename, del);
  return li;
}

async function threadRequest(method, threadId, body) {
  const init = { method, headers: { Accept: "application/json" } };
  if (body) {
    init.headers["Content-Type"] = "application/json";
    init.body = JSON.stringify(body);
  }
  const res = await fetch(`${route}/threads/${encodeURIComponent(threadId)}`, init);
  if (!res.ok) setStatus(`${method.toLowerCase()} failed: ${res.status}`, "error");
}

// openThread switches the conversation to another thread of the route.
async function openThread(threadId) {
  if (agent.isRunning) return;
  selectAgent(route, threadId);
  remember();
  await loadThread(threadId);
  refreshThreads();
}

// run starts one run and reports how it ended. A RUN_ERROR has already set
// the status by the time runAgent resolves.
async function run(params) {
  stopping = false;
  setRunning(true);
  setStatus("running…");
  try {
    // A run whose model called the page's tools continues with their
    // results, a few times at most.
    for (let turn = 0; turn < 5; turn++) {
      await agent.runAgent({ tools: offered, ...params });
      remember();
      params = {};
      if (stopping || agent.pendingInterrupts.length > 0 || ui.status.className === "error" || !runFrontendCalls()) break;
    }
    if (stopping) setStatus("stopped");
    else if (agent.pendingInterrupts.length > 0) setStatus("waiting for approval");
    else if (ui.status.className !== "error") setStatus("done");
  } catch (err) {
    setStatus(stopping ? "stopped" : `failed: ${err.message}`, stopping ? "" : "error");
  } finally {
    renderInterrupts();
    setRunning(false);
    refreshThreads();
    if (!ui.input.disabled) ui.input.focus();
  }
}

// send adds a user message and runs the agent.
function send(content) {
  if (!content || agent.isRunning || agent.pendingInterrupts.length > 0) return;
  agent.addMessage({ id: randomUUID(), role: "user", content });
  run();
}

ui.form.addEventListener("submit", (e) => {
  e.preventDefault();
  const content = ui.input.value.trim();
  if (!content || agent.isRunning) return;
  ui.input.value = "";
  send(content);
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

ui.newThread.addEventListener("click", () => {
  if (agent.isRunning) return;
  selectAgent(route);
  remember();
});

ui.picker.addEventListener("change", () => {
  selectAgent(ui.picker.value);
  history.replaceState(null, "", location.pathname);
});

async function start() {
  // GET /agents lists every agent route the app serves.
  let routes = ["/agents/echo"];
  try {
    const res = await fetch("/agents", { headers: { Accept: "application/json" } });
    if (res.ok) routes = (await res.json()).routes;
  } catch {
    // Keep the default: the page still works against the echo agent.
  }
  // ?agent=<route>&thread=<id> reopens a thread (see remember).
  const q = new URLSearchParams(location.search);
  const wanted = routes.includes(q.get("agent")) ? q.get("agent") : "/agents/echo";
  ui.picker.replaceChildren(...routes.map((r) => new Option(r.replace(/^\/agents\//, ""), r, false, r === wanted)));
  ui.picker.value = wanted;
  const thread = q.get("thread");
  selectAgent(ui.picker.value, thread || undefined);
  if (thread) await loadThread(thread);
}

start();
