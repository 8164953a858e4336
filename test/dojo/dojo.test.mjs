// Every Dojo feature examples/dojo serves, driven by the official
// @ag-ui/client 1.0.0 as the Dojo's page for it drives the ag-ui .NET
// integration (the same frontend tools, context and state in the input,
// the same follow-up run after a frontend tool or a confirmation), with
// the server's model answered by aimock from the Dojo's own fixtures. Each
// test asserts the events, messages and state the page renders from.
// Run by dojo_test.go, which sets DOJO_BIN, GINAPP_BIN, DOJO_FIXTURES and
// DOJO_IMAGE.

import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { startAimock } from "./aimock.mjs";
import { experiencesText, planText } from "./subgraphs-fixtures.mjs";
import { startServer, TapAgent, run, types, user, toolResult, lastCall, lastText } from "./harness.mjs";

const done = "Done! I've completed that for you.";
let mock;
let dojo;

before(async () => {
  mock = await startAimock(process.env.DOJO_FIXTURES);
  dojo = await startServer(process.env.DOJO_BIN, mock.url);
});
after(async () => {
  await dojo?.stop();
  await mock?.stop();
});

const agentFor = (feature, opts = {}) => new TapAgent({ url: `${dojo.base}/${feature}`, ...opts });

// The frontend tools the pages register, with their parameter schemas.
const changeBackground = {
  name: "change_background",
  description: "Change the background color of the chat.",
  parameters: { type: "object", properties: { background: { type: "string" } }, required: ["background"] },
};
const generateTaskSteps = {
  name: "generate_task_steps",
  description: "Generates a list of steps for the user to perform",
  parameters: {
    type: "object",
    properties: {
      steps: {
        type: "array",
        items: {
          type: "object",
          properties: {
            description: { type: "string" },
            status: { type: "string", enum: ["enabled", "disabled", "executing"] },
          },
          required: ["description", "status"],
        },
      },
    },
    required: ["steps"],
  },
};
const generateHaiku = {
  name: "generate_haiku",
  description: "Generate a haiku in Japanese and its English translation",
  parameters: {
    type: "object",
    properties: {
      japanese: { type: "array", items: { type: "string" } },
      english: { type: "array", items: { type: "string" } },
      image_name: { type: "string" },
      gradient: { type: "string" },
    },
    required: ["japanese", "english", "image_name", "gradient"],
  },
};
const confirmChanges = { name: "confirm_changes", description: "Confirm the changes", parameters: { type: "object", properties: {} } };
const writeDocument = {
  name: "write_document",
  description: "Write a document",
  parameters: { type: "object", properties: { document: { type: "string" } }, required: ["document"] },
};

test("the server runs on aimock through OPENAI_BASE_URL", () => {
  assert.equal(dojo.model, "openai");
});

test("agentic_chat: text answers, and the page's change_background tool round trip", async () => {
  const agent = agentFor("agentic_chat", { initialMessages: [user("Hi, I am duaa")] });
  const params = { tools: [changeBackground], context: [{ description: "Name of the user", value: "Bob" }] };
  const first = await run(agent, params);
  assert.ok(!types(first).some((t) => t.startsWith("TOOL_CALL")), types(first).join(" "));
  assert.equal(lastText(agent), "Hello duaa! How can I assist you today?");
  // The page's context reached the model.
  assert.match(JSON.stringify(mock.getLastRequest().body.messages), /Bob/);

  agent.addMessage(user("Change the background color to blue"));
  const second = await run(agent, params);
  assert.ok(!types(second).includes("TOOL_CALL_RESULT"), "the page runs its own tool");
  assert.equal(types(second).at(-2), "TOOL_CALL_END", "the run ends with the frontend call");
  const c = lastCall(agent);
  assert.equal(c.function.name, "change_background");
  assert.deepEqual(JSON.parse(c.function.arguments), { background: "blue" });

  // useFrontendTool's follow-up: the handler's result, then a new run.
  agent.addMessage(toolResult(c.id, "Background changed to blue"));
  await run(agent, params);
  assert.equal(lastText(agent), done);
});

test("v1_agentic_chat: the v1 page's Hi on /agentic_chat", async () => {
  const agent = agentFor("agentic_chat", { initialMessages: [user("Hi")] });
  await run(agent, { tools: [changeBackground] });
  assert.equal(lastText(agent), "Hello! How can I assist you today?");
});

test("backend_tool_rendering: get_weather runs on the server and its result reaches the card", async () => {
  for (const prompt of ["What's the weather like in San Francisco?", "Tell me about the weather in New York."]) {
    const agent = agentFor("backend_tool_rendering", { initialMessages: [user(prompt)] });
    const events = await run(agent);
    const t = types(events);
    const start = events.find((e) => e.type === "TOOL_CALL_START");
    assert.equal(start?.toolCallName, "get_weather");
    const result = events.find((e) => e.type === "TOOL_CALL_RESULT");
    assert.ok(result && t.indexOf("TOOL_CALL_RESULT") > t.indexOf("TOOL_CALL_END"), t.join(" "));
    assert.equal(result.toolCallId, start.toolCallId);
    const report = JSON.parse(result.content);
    assert.equal(report.temperature, 20);
    assert.equal(report.conditions, "sunny");
    assert.equal(report.city, "San Francisco");
    assert.ok(t.lastIndexOf("TEXT_MESSAGE_CONTENT") > t.indexOf("TOOL_CALL_RESULT"), "the answer follows the result");
    assert.deepEqual(agent.messages.slice(1).map((m) => m.role), ["assistant", "tool", "assistant"]);
    assert.equal(lastText(agent), done);
  }
});

test("human_in_the_loop: the steps come as a frontend call; the user's choice gets an answer", async () => {
  const agent = agentFor("human_in_the_loop", { initialMessages: [user("Please plan one step with eggs")] });
  const first = await run(agent, { tools: [generateTaskSteps] });
  assert.ok(!types(first).includes("TOOL_CALL_RESULT"));
  const c = lastCall(agent);
  assert.equal(c.function.name, "generate_task_steps");
  const { steps } = JSON.parse(c.function.arguments);
  assert.equal(steps[0].description, "Crack eggs into bowl");
  assert.ok(steps.every((s) => s.status === "enabled"));

  agent.addMessage(toolResult(c.id, JSON.stringify({ accepted: true, steps })));
  await run(agent, { tools: [generateTaskSteps] });
  assert.equal(lastText(agent), done);
});

test("agentic_generative_ui: create_plan's steps reach the page's progress list as state", async () => {
  for (const [prompt, first] of [
    ["Give me a plan to make brownies", "Gather ingredients"],
    ["Go to Mars", "Design spacecraft"],
  ]) {
    const agent = agentFor("agentic_generative_ui", { initialMessages: [user("Hi")] });
    await run(agent);
    assert.equal(lastText(agent), "Hello! How can I assist you today?");
    agent.addMessage(user(prompt));
    const events = await run(agent);
    assert.ok(events.some((e) => e.type === "STATE_SNAPSHOT" || e.type === "STATE_DELTA"), types(events).join(" "));
    assert.equal(agent.state.steps.length, 4);
    assert.equal(agent.state.steps[0].description, first);
    assert.ok(agent.state.steps.every((s) => s.status === "pending"));
    assert.equal(lastText(agent), done);
  }
});

test("shared_state: the agent's recipe reaches the page, and the page's edits reach the model", async () => {
  const seeded = {
    recipe: {
      title: "Make Your Recipe",
      skill_level: "Intermediate",
      cooking_time: "45 min",
      special_preferences: [],
      ingredients: [
        { icon: "🥕", name: "Carrots", amount: "3 large, grated" },
        { icon: "🌾", name: "All-Purpose Flour", amount: "2 cups" },
      ],
      instructions: ["Preheat oven to 350°F (175°C)"],
    },
  };
  const agent = agentFor("shared_state", {
    initialMessages: [user('Please give me a pasta recipe of your choosing, but one of the ingredients should be "Pasta"')],
    initialState: seeded,
  });
  const events = await run(agent);
  assert.ok(events.some((e) => e.type === "STATE_SNAPSHOT" || e.type === "STATE_DELTA"));
  assert.equal(agent.state.recipe.title, "Pasta Aglio e Olio");
  assert.equal(agent.state.recipe.ingredients[0].name, "Pasta");
  assert.equal(lastText(agent), done);

  // The user adds an ingredient in the page; the next run carries it.
  agent.setState({ recipe: { ...agent.state.recipe, ingredients: [...agent.state.recipe.ingredients, { icon: "🥔", name: "Potatoes", amount: "12" }] } });
  agent.addMessage(user("Give me all the ingredients"));
  await run(agent);
  assert.match(lastText(agent), /Potatoes: 12/);
  assert.match(JSON.stringify(mock.getLastRequest().body.messages), /Potatoes/, "the model saw the page's state");
});

test("predictive_state_updates: the document streams into state, then confirm_changes waits for the user", async () => {
  const tools = [confirmChanges, writeDocument];
  const agent = agentFor("predictive_state_updates", {
    initialMessages: [user("Give me a story for a dragon called Atlantis in document")],
  });
  const events = await run(agent, { tools });
  const t = types(events);
  const write = events.find((e) => e.type === "TOOL_CALL_START" && e.toolCallName === "write_document_local");
  assert.ok(write, t.join(" "));
  const writeEnd = events.findIndex((e) => e.type === "TOOL_CALL_END" && e.toolCallId === write.toolCallId);
  const firstState = events.findIndex((e) => e.type === "STATE_SNAPSHOT" || e.type === "STATE_DELTA");
  assert.ok(firstState >= 0 && firstState < writeEnd, `the document is predicted while it streams: ${t.join(" ")}`);
  const result = events.find((e) => e.type === "TOOL_CALL_RESULT" && e.toolCallId === write.toolCallId);
  assert.equal(result?.content, "Document written.");
  const confirm = events.findLast((e) => e.type === "TOOL_CALL_START");
  assert.equal(confirm.toolCallName, "confirm_changes");
  assert.equal(t.at(-2), "TOOL_CALL_END", "the run ends with confirm_changes pending");
  assert.match(agent.state.document, /^Once upon a time/);
  assert.match(agent.state.document, /Atlantis/);

  agent.addMessage(toolResult(confirm.toolCallId, JSON.stringify({ accepted: true })));
  await run(agent, { tools });
  assert.equal(lastText(agent), done);
});

test("tool_based_generative_ui: generate_haiku is the page's to render, with no follow-up", async () => {
  for (const [prompt, english] of [
    ['Generate Haiku for "I will always win"', /victory/],
    ['Generate Haiku for "The moon shines bright"', /moon/],
  ]) {
    const agent = agentFor("tool_based_generative_ui", { initialMessages: [user(prompt)] });
    const events = await run(agent, { tools: [generateHaiku] });
    assert.ok(!types(events).includes("TOOL_CALL_RESULT"));
    const c = lastCall(agent);
    assert.equal(c.function.name, "generate_haiku");
    const haiku = JSON.parse(c.function.arguments);
    assert.equal(haiku.japanese.length, 3);
    assert.match(haiku.english.join(" "), english);
  }
});

test("agentic_chat_reasoning: the model's reasoning streams before its answer", async () => {
  const agent = agentFor("agentic_chat_reasoning", { initialMessages: [user("What is the best car to buy?")] });
  const events = await run(agent);
  const t = types(events);
  const reasoning = events.filter((e) => e.type === "REASONING_MESSAGE_CONTENT").map((e) => e.delta).join("");
  assert.match(reasoning, /Toyota Camry/);
  assert.ok(t.indexOf("REASONING_START") < t.indexOf("TEXT_MESSAGE_START"), t.join(" "));
  assert.match(lastText(agent), /Toyota Camry/);
});

test("agentic_chat_multimodal: an uploaded image reaches the model with the question", async () => {
  const png = readFileSync(process.env.DOJO_IMAGE).toString("base64");
  const agent = agentFor("agentic_chat_multimodal", {
    initialMessages: [
      {
        id: "user-image",
        role: "user",
        content: [
          { type: "text", text: "Tell me what do you see in this image" },
          { type: "image", source: { type: "data", value: png, mimeType: "image/png" } },
        ],
      },
    ],
  });
  await run(agent);
  assert.match(lastText(agent), /image/);
  const sent = JSON.stringify(mock.getLastRequest().body.messages);
  assert.ok(sent.includes(`data:image/png;base64,${png.slice(0, 64)}`), "the image went to the model as a data URL");
});

test("interrupt: schedule_meeting pauses the run for the picker, and the picked time resumes it", async () => {
  for (const [answer, booked] of [
    [{ chosen_time: "2026-12-08T10:00:00.000Z", chosen_label: "Tue, Dec 8, 10:00 AM" }, /Booked "Intro call with the sales team" with the sales team for Tue, Dec 8, 10:00 AM/],
    [{ cancelled: true }, /nothing was booked/],
  ]) {
    const agent = agentFor("interrupt", { initialMessages: [user("Book an intro call with the sales team to discuss pricing.")] });
    const first = await run(agent, {}, "interrupt");
    const [pending] = agent.pendingInterrupts;
    assert.equal(pending.reason, "user_input");
    assert.equal(pending.metadata.toolName, "schedule_meeting");
    assert.deepEqual(JSON.parse(pending.metadata.arguments), { topic: "Intro call with the sales team", attendee: "the sales team" });
    assert.ok(pending.responseSchema.properties.chosen_time, "the picker's answer is the response schema");
    assert.ok(!types(first).includes("TOOL_CALL_RESULT"), "nothing is booked before the answer");

    // useInterrupt's resolve(...) resumes the run with the pick.
    await run(agent, { resume: [{ interruptId: pending.id, status: "resolved", payload: answer }] });
    const result = agent.messages.find((m) => m.role === "tool" && m.toolCallId === pending.toolCallId);
    assert.match(result?.content ?? "", booked);
    assert.equal(lastText(agent), done);
  }
});

// askedOf is the choice a run paused on, as useLangGraphInterrupt reads
// it: the value of the CUSTOM on_interrupt event just before RUN_FINISHED,
// a JSON string.
function askedOf(events) {
  const t = types(events);
  assert.equal(t.at(-2), "CUSTOM", t.join(" "));
  const ev = events.at(-2);
  assert.equal(ev.name, "on_interrupt");
  assert.equal(typeof ev.value, "string");
  assert.equal(events.at(-1).outcome?.type ?? "success", "success", "the hook stops on an interrupt outcome");
  return JSON.parse(ev.value);
}

test("subgraphs: the supervisor hands the trip to the flights and hotels agents, which pause for the pick in useLangGraphInterrupt's dialect, then to the experiences subagent", async () => {
  for (const [airline, hotelName, prompt] of [
    ["KLM", "Hotel Zoe", "Help me plan a trip to San Francisco"],
    ["United", "The Ritz-Carlton", "I want to visit San Francisco from Amsterdam"],
  ]) {
    // The page's INITIAL_STATE, set on mount.
    const initialState = { itinerary: {}, experiences: [], flights: [], hotels: [], planning_step: "start", active_agent: "supervisor" };
    const agent = agentFor("subgraphs", { initialMessages: [user(prompt)], initialState });
    // resolve(JSON.stringify(option)) sends the pick with the next run.
    const pick = (option) => run(agent, { forwardedProps: { command: { resume: JSON.stringify(option) } } });

    const flights = askedOf(await run(agent));
    assert.equal(flights.agent, "flights");
    assert.deepEqual(flights.options.map((f) => `${f.airline} ${f.price} ${f.duration}`), ["KLM $650 11h 30m", "United $720 12h 15m"]);
    assert.equal(flights.recommendation.airline, "KLM");
    assert.ok(flights.message.includes("Amsterdam") && flights.message.includes("San Francisco"), flights.message);
    assert.equal(agent.state.itinerary.flight, undefined, "nothing is chosen before the pick");

    const hotels = askedOf(await pick(flights.options.find((f) => f.airline === airline)));
    assert.equal(agent.state.itinerary.flight.airline, airline, "the selected-flight strip");
    assert.equal(agent.state.flights.length, 2);
    assert.equal(hotels.agent, "hotels");
    assert.deepEqual(hotels.options.map((h) => `${h.name} ${h.location} ${h.price_per_night}`),
      ["Hotel Zephyr Fisherman's Wharf $280/night", "The Ritz-Carlton Nob Hill $550/night", "Hotel Zoe Union Square $320/night"]);
    assert.equal(hotels.recommendation.name, "Hotel Zoe");

    const last = await pick(hotels.options.find((h) => h.name === hotelName));
    assert.ok(!types(last).includes("CUSTOM"), "no third pause");
    assert.equal(agent.state.itinerary.flight.airline, airline, "the flight stays chosen");
    assert.equal(agent.state.itinerary.hotel.name, hotelName, "the selected-hotel strip");
    assert.deepEqual(agent.state.experiences.map((e) => e.name), ["Pier 39", "Golden Gate Bridge", "Swan Oyster Depot", "Tartine Bakery"]);
    assert.equal(agent.state.active_agent, "experiences");
    // The experiences agent is a subagent: its answer is attributed to it.
    const sub = last.find((e) => e.type === "TEXT_MESSAGE_CONTENT" && e.delta && experiencesText.startsWith(e.delta));
    assert.ok(sub?.subagentRunId, `the experiences agent's text carries its subagentRunId: ${JSON.stringify(sub)}`);
    const result = agent.messages.find((m) => m.role === "tool" && m.content === experiencesText);
    assert.ok(result, "the subagent's answer is the experiences_agent call's result");
    assert.equal(lastText(agent), planText);

    // The supervisor saw each specialist's part done in its status.
    const sys = mock.getLastRequest().body.messages[0].content;
    assert.match(sys, /Flights found: true[\s\S]*Hotels found: true[\s\S]*Experiences found: true/);
  }
});

test("subgraphs: a pick that does not fit the choice fails the run with BAD_RESUME, and the choice stays open", async () => {
  const agent = agentFor("subgraphs", { initialMessages: [user("Find me flights to Tokyo.")] });
  const flights = askedOf(await run(agent));
  const from = agent.raw.length;
  const oe = console.error;
  console.error = () => {}; // the client reports the failed run; the test reads it from the stream
  try {
    await agent.runAgent({ forwardedProps: { command: { resume: JSON.stringify({ airline: 7 }) } } }).catch(() => {});
  } finally {
    console.error = oe;
  }
  const failed = agent.raw.slice(from);
  assert.deepEqual(types(failed), ["RUN_STARTED", "RUN_ERROR"], "refused before anything runs");
  assert.equal(failed[1].code, "BAD_RESUME");
  await run(agent, { forwardedProps: { command: { resume: JSON.stringify(flights.options[0]) } } });
  assert.equal(agent.state.itinerary.flight.airline, "KLM");
});

test("gin-app: OPENAI_BASE_URL puts its loop route on the model, and the official client chats with it", async () => {
  const app = await startServer(process.env.GINAPP_BIN, mock.url);
  try {
    const agent = new TapAgent({ url: `${app.base}/agents/loop`, initialMessages: [user("Hi, I am duaa")] });
    await run(agent);
    assert.equal(lastText(agent), "Hello duaa! How can I assist you today?");
    assert.equal(mock.getLastRequest().body.model, "gpt-4o");
  } finally {
    await app.stop();
  }
});

// The A2UI pages paint a surface from any TOOL_CALL_RESULT whose content
// is {"a2ui_operations":[…]}, and show the failed state for one whose
// code is a2ui_recovery_exhausted (the runtime's A2UI middleware).
const resultOf = (events, name) => {
  const start = events.find((e) => e.type === "TOOL_CALL_START" && e.toolCallName === name);
  assert.ok(start, `no ${name} call: ${types(events).join(" ")}`);
  const result = events.find((e) => e.type === "TOOL_CALL_RESULT" && e.toolCallId === start.toolCallId);
  assert.ok(result, `no result for ${name}`);
  return JSON.parse(result.content);
};

// surfaceOf checks an envelope is createSurface, updateComponents and
// updateDataModel of one v0.9 surface, every child reference resolving,
// and returns the surface's id, catalog and data.
function surfaceOf(envelope) {
  const ops = envelope.a2ui_operations;
  assert.ok(Array.isArray(ops), JSON.stringify(envelope));
  assert.ok(ops.every((op) => op.version === "v0.9"));
  const [create, update, data] = ops;
  assert.ok(create.createSurface && update.updateComponents && data.updateDataModel, JSON.stringify(ops));
  const ids = new Set(update.updateComponents.components.map((c) => c.id));
  assert.ok(ids.has("root"));
  for (const c of update.updateComponents.components) {
    const refs = Array.isArray(c.children) ? c.children : c.children ? [c.children.componentId] : [];
    for (const r of refs) assert.ok(ids.has(r), `${c.id} refers to missing ${r}`);
  }
  assert.equal(data.updateDataModel.path, "/");
  return { id: create.createSurface.surfaceId, catalog: create.createSurface.catalogId, components: update.updateComponents.components, data: data.updateDataModel.value };
}

test("a2ui_fixed_schema: search_flights and search_hotels paint the fixed catalog's cards, both in one chat", async () => {
  const agent = agentFor("a2ui_fixed_schema", { initialMessages: [user("Find flights from SFO to JFK for next Tuesday.")] });
  const first = surfaceOf(resultOf(await run(agent), "search_flights"));
  assert.equal(first.id, "flight-search-results");
  assert.equal(first.catalog, "https://a2ui.org/demos/dojo/fixed_catalog.json");
  assert.deepEqual(first.components.map((c) => c.component), ["Row", "FlightCard"]);
  assert.deepEqual(first.data.flights.map((f) => [f.flightNumber, f.price]), [["UA 123", "$289"], ["DL 456", "$315"]]);
  assert.equal(lastText(agent), done);

  agent.addMessage(user("Find hotels in downtown Manhattan for next weekend."));
  const second = surfaceOf(resultOf(await run(agent), "search_hotels"));
  assert.equal(second.id, "hotel-search-results");
  assert.deepEqual(second.data.hotels.map((h) => h.name), ["The Manhattan Grand", "Downtown Boutique Hotel"]);
  assert.deepEqual(second.components[1].pricePerNight, { path: "price" });
  assert.equal(lastText(agent), done);

  // A click on a card's button: the A2UI middleware sends the action in
  // forwardedProps and adds it to the messages as a log_a2ui_event call
  // and its result; the model is told of it and answers, without
  // searching again.
  const action = { name: "book_hotel", surfaceId: "hotel-search-results", sourceComponentId: "hotel-card", context: { name: "The Manhattan Grand", price: "$350" } };
  agent.addMessage({ id: "click-1", role: "assistant", content: "", toolCalls: [{ id: "click-call-1", type: "function", function: { name: "log_a2ui_event", arguments: JSON.stringify(action) } }] });
  agent.addMessage(toolResult("click-call-1", `User performed action "book_hotel" on surface "hotel-search-results" (component: hotel-card). Context: ${JSON.stringify(action.context)}`));
  const clicked = await run(agent, { forwardedProps: { a2uiAction: { userAction: action } } });
  assert.ok(!types(clicked).includes("TOOL_CALL_START"), types(clicked).join(" "));
  const told = mock.getLastRequest().body.messages.at(-1);
  assert.equal(told.role, "user");
  assert.equal(told.content, `User performed action "book_hotel" on surface "hotel-search-results" (component: hotel-card). Context: ${JSON.stringify(action.context)}`);
  assert.equal(lastText(agent), "I understand. How can I help you with that?");
});

test("a2ui_dynamic_schema and a2ui_advanced: generate_a2ui's sub-agent designs the surface", async () => {
  for (const [feature, prompt, id, first] of [
    ["a2ui_dynamic_schema", "Use the generate_a2ui tool to create a comparison of 3 hotels with prices and ratings.", "hotel-comparison", "The Ritz"],
    ["a2ui_dynamic_schema", "Use the generate_a2ui tool to create a product comparison of 3 headphones.", "product-comparison", "Sony WH-1000XM5"],
    ["a2ui_dynamic_schema", "Use the generate_a2ui tool to create a team roster with 4 people.", "team-roster", "Alice Chen"],
    ["a2ui_advanced", "Create a comparison of 3 hotels with prices and ratings.", "hotel-comparison", "The Ritz"],
    ["a2ui_advanced", "Create a team directory with 4 people.", "team-roster", "Alice Chen"],
  ]) {
    const agent = agentFor(feature, { initialMessages: [user(prompt)] });
    const s = surfaceOf(resultOf(await run(agent), "generate_a2ui"));
    assert.equal(s.id, id, prompt);
    assert.equal(s.catalog, "https://a2ui.org/demos/dojo/dynamic_catalog.json");
    assert.equal(s.data.items[0].name, first);
    assert.equal(lastText(agent), done);
    // The sub-agent was forced onto render_a2ui, the only tool it saw.
    const sub = mock.getRequests().map((r) => r.body).findLast((b) => b.tools?.some((t) => t.function.name === "render_a2ui"));
    assert.deepEqual(sub.tools.map((t) => t.function.name), ["render_a2ui"]);
    assert.deepEqual(sub.tool_choice, { type: "function", function: { name: "render_a2ui" } });
  }
});

test("a2ui_recovery: an invalid surface is retried with what was wrong; one that stays invalid fails cleanly", async () => {
  const luxury = agentFor("a2ui_recovery", { initialMessages: [user("Compare 3 luxury hotels with ratings and prices.")] });
  const s = surfaceOf(resultOf(await run(luxury), "generate_a2ui"));
  assert.equal(s.id, "hotel-comparison");
  assert.equal(s.catalog, "https://a2ui.org/demos/dojo/dynamic_catalog.json", "the server's catalog for a surface that names none");
  assert.equal(lastText(luxury), done);
  // The retry's system prompt said what was invalid.
  const retry = mock.getRequests().map((r) => r.body).findLast((b) => b.tools?.some((t) => t.function.name === "render_a2ui"));
  assert.match(retry.messages[0].content, /## Previous attempt was invalid — fix these and regenerate:\n- \[A2UI_UNRESOLVED_CHILD\] components\[0\]\.children\.componentId: "card"/);

  const broken = agentFor("a2ui_recovery", { initialMessages: [user("Compare 3 broken hotels with ratings and prices.")] });
  for (const turn of [null, "Thanks anyway."]) {
    if (turn) broken.addMessage(user(turn));
    const failure = resultOf(await run(broken), "generate_a2ui");
    assert.equal(failure.code, "a2ui_recovery_exhausted");
    assert.equal(failure.error, "Failed to generate valid A2UI after 3 attempt(s)");
    assert.deepEqual(failure.attempts.map((a) => [a.attempt, a.ok]), [[1, false], [2, false], [3, false]]);
    assert.equal(failure.attempts[0].errors[0].code, "A2UI_UNRESOLVED_CHILD");
    assert.ok(!("a2ui_operations" in failure), "an invalid surface is never painted");
    assert.equal(lastText(broken), done);
  }
});

test("background_agents: run_deep_research runs in the background, its card running while the turn lasts and completed on the next", async () => {
  const agent = agentFor("background_agents", { initialMessages: [user("Research the Solana ecosystem for me.")] });
  const first = await run(agent);
  const snap = first.find((e) => e.type === "ACTIVITY_SNAPSHOT");
  assert.ok(snap, `no activity: ${types(first).join(" ")}`);
  assert.equal(snap.activityType, "mastra-background-task");
  assert.equal(snap.messageId, snap.content.taskId, "the task id is the activity's message id");
  assert.equal(snap.content.toolName, "run_deep_research");
  assert.equal(snap.content.args.topic, "Solana ecosystem", "the card shows the topic");
  const card = () => agent.messages.find((m) => m.role === "activity" && m.id === snap.messageId);
  // Completion is out of band: within the turn the card says Running.
  assert.equal(card()?.content.status, "running");
  assert.equal(lastText(agent), done);

  // The five research steps take 800 ms each; the server counts the
  // tasks still running or delivering.
  for (const deadline = Date.now() + 30000; ; ) {
    const { tasks } = await (await fetch(`${dojo.base}/background_agents/tasks`)).json();
    if (tasks === 0) break;
    assert.ok(Date.now() < deadline, "the research did not finish in 30 s");
    await new Promise((res) => setTimeout(res, 100));
  }
  agent.addMessage(user("What did the research find?"));
  const second = await run(agent);
  assert.equal(second[1].type, "MESSAGES_SNAPSHOT", "the next turn starts with the delivered result");
  const done2 = card();
  assert.equal(done2?.content.status, "completed");
  assert.equal(done2.content.result.sources, 7);
  assert.match(done2.content.result.summary, /Solana ecosystem/);
  assert.equal(done2.content.outputs.length, 5, "every step's progress");
  assert.equal(agent.messages.filter((m) => m.role === "activity").length, 1, "one card per task");
  // The model read the findings.
  const asked = mock.getRequests().map((r) => r.body).findLast((b) => b.tools?.some((t) => t.function.name === "run_deep_research"));
  assert.ok(asked.messages.some((m) => m.role === "system" && m.content.includes("deep-research pass")), "no findings in the model's request");
});

test("observational_memory: as the conversation grows, an observation cycle shows as the memory card, and the model reads the observations", async () => {
  // The Dojo's page object's turns.
  const turns = [
    "I'm planning a detailed two-week trip through Japan in spring and want your help. " +
      "Here is a lot of context so you can tailor everything to me: I love regional food, " +
      "quiet temples, scenic local train lines, hot springs, gardens, craft markets, and " +
      "small mountain towns. I strongly dislike big crowds, long queues, loud nightlife, and " +
      "touristy chain restaurants. I am vegetarian and I do not drink alcohol, so keep that in " +
      "mind for every food suggestion. I prefer traditional inns, I wake up early, and I want a " +
      "relaxed pace with at most one destination change every two or three days. My budget is " +
      "moderate. Please remember all of these preferences for the rest of our conversation, and " +
      "start by suggesting a few regions that fit, with a short reason for each.",
    "Given all of that, walk me through the regional food scene in detail, region by region, " +
      "with specific vegetarian dishes to seek out and which towns are best for each. Remember: no alcohol, small crowds.",
    "Now lay out a detailed rough day-by-day itinerary for the whole first week, naming cities, the scenic train legs between them, " +
      "and a temple or garden for each day, keeping my slow pace and inn preference in mind.",
  ];
  const agent = agentFor("observational_memory", { initialMessages: [user(turns[0])] });
  const first = await run(agent);
  assert.ok(!first.some((e) => e.type.startsWith("ACTIVITY")), "nothing to observe on the first turn");

  agent.addMessage(user(turns[1]));
  const second = await run(agent);
  const snap = second.find((e) => e.type === "ACTIVITY_SNAPSHOT");
  assert.ok(snap, `no activity: ${types(second).join(" ")}`);
  assert.equal(snap.activityType, "mastra-observational-memory");
  assert.equal(snap.messageId, snap.content.cycleId, "the cycle id is the activity's message id");
  assert.deepEqual([snap.content.operationType, snap.content.phase, snap.content.status], ["observation", "observation", "running"]);
  assert.ok(second.filter((e) => e.type === "ACTIVITY_DELTA").length >= 2, "the cycle advances");
  const card = agent.messages.find((m) => m.role === "activity" && m.id === snap.messageId);
  assert.equal(card.content.status, "activated", "the page's card ends Activated");
  assert.equal(card.content.phase, "activation");
  assert.ok(card.content.observations.length > 0);
  assert.ok(card.content.tokensObserved > 0 && card.content.messagesActivated === 2);

  agent.addMessage(user(turns[2]));
  const third = await run(agent);
  assert.ok(!third.some((e) => e.type.startsWith("ACTIVITY")), "the observed part is not observed again");
  const asked = mock.getRequests().map((r) => r.body).findLast((b) => b.messages.some((m) => m.role === "user" && m.content === turns[2]));
  assert.ok(asked.messages.some((m) => m.role === "system" && m.content.includes(card.content.observations)), "the model reads the observations");
  assert.ok(!asked.messages.some((m) => m.content === turns[0]), "in place of the observed messages");
});
