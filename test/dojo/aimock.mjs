// Starts aimock (@copilotkit/aimock's LLMock), the OpenAI-compatible mock
// the AG-UI Dojo's end-to-end suite runs every integration against, with
// the Dojo's fixture files and the predicate fixtures its setup registers
// in code. The predicates here are our own, written from what
// shared/docs/dojo.md says each one answers; the fixture files are read
// from shared/fixtures/dojo/openai, never copied into the repository.

import { readdirSync } from "node:fs";
import { join } from "node:path";
import { LLMock } from "@copilotkit/aimock";
import { a2uiPredicates } from "./a2ui-fixtures.mjs";
import { backgroundPredicates } from "./background-fixtures.mjs";
import { subgraphsPredicates } from "./subgraphs-fixtures.mjs";

// textOf is a message's text, whether its content is a string or parts.
export function textOf(content) {
  if (typeof content === "string") return content;
  if (Array.isArray(content)) return content.filter((p) => p?.type === "text").map((p) => p.text).join("");
  return "";
}

const lastUserText = (req) => textOf(req.messages.findLast((m) => m.role === "user")?.content);
const toolNames = (req) => (req.tools ?? []).map((t) => t.function?.name);
const offers = (req, name) => toolNames(req).includes(name);
const lastIsTool = (req) => req.messages.at(-1)?.role === "tool";

const call = (name, args) => ({ toolCalls: [{ name, arguments: JSON.stringify(args) }] });

// The Dojo's own predicates, in the order it registers them: those that
// key on a tool name the server offers come before the fixture files.
function predicates() {
  const plan = (steps) => call("create_plan", { steps });
  const recipe = {
    title: "Pasta Aglio e Olio",
    skill_level: "Intermediate",
    cooking_time: "45 min",
    special_preferences: [],
    ingredients: [
      { icon: "🍝", name: "Pasta", amount: "400g" },
      { icon: "🧂", name: "Salt", amount: "1 tsp" },
      { icon: "🫒", name: "Olive Oil", amount: "4 tbsp" },
      { icon: "🧄", name: "Garlic", amount: "4 cloves" },
      { icon: "🍅", name: "Tomatoes", amount: "2" },
    ],
    instructions: [
      "Boil the pasta in salted water",
      "Slice the garlic",
      "Warm the garlic in olive oil",
      "Add the tomatoes",
      "Toss the pasta in the sauce",
    ],
    changes: "",
  };
  const hasNestedRecipe = (req) =>
    (req.tools ?? []).some((t) => t.function?.name === "generate_recipe" && t.function?.parameters?.properties?.recipe);
  return [
    {
      match: { predicate: (req) => !lastIsTool(req) && offers(req, "create_plan") && lastUserText(req).includes("plan to make brownies") },
      response: plan(["Gather ingredients", "Melt butter and mix with cocoa", "Add eggs and flour", "Bake at 350F for 25 min"]),
    },
    {
      match: { predicate: (req) => !lastIsTool(req) && offers(req, "create_plan") && lastUserText(req).includes("Go to Mars") },
      response: plan(["Design spacecraft", "Assemble crew", "Launch from Earth", "Land on Mars"]),
    },
    {
      match: { predicate: (req) => !lastIsTool(req) && hasNestedRecipe(req) && lastUserText(req).includes("pasta recipe") },
      response: call("generate_recipe", { recipe }),
    },
    // The interrupt page's agent offers schedule_meeting; before any tool
    // result the model calls it.
    {
      match: { predicate: (req) => offers(req, "schedule_meeting") && !req.messages.some((m) => m.role === "tool") },
      response: call("schedule_meeting", { topic: "Intro call with the sales team", attendee: "the sales team" }),
    },
  ];
}

// startAimock starts the mock on a free loopback port with the fixture
// files of dir (the Dojo's e2e/fixtures/openai) and resolves to it; its
// url is the server's base, without /v1.
export async function startAimock(dir) {
  const mock = new LLMock({ port: 0, host: "127.0.0.1", logLevel: "silent" });
  // subgraphs' supervisor is answered by its status after a tool result
  // too (subgraphs-fixtures.mjs says why).
  mock.addFixtures(subgraphsPredicates());
  // After a tool result the Dojo's mock answers with a fixed text, before
  // any other fixture is considered.
  mock.addFixture({ match: { predicate: lastIsTool }, response: { content: "Done! I've completed that for you." } });
  mock.addFixtures(predicates());
  mock.addFixtures(a2uiPredicates());
  mock.addFixtures(backgroundPredicates());
  // human-in-the-loop first: it shares a substring with agentic-gen-ui,
  // and the first match wins.
  const files = readdirSync(dir).filter((f) => f.endsWith(".json")).sort((a, b) => (a === "human-in-the-loop.json" ? -1 : b === "human-in-the-loop.json" ? 1 : a.localeCompare(b)));
  for (const f of files) mock.loadFixtureFile(join(dir, f));
  mock.addFixture({ match: { predicate: () => true }, response: { content: "I understand. How can I help you with that?" } });
  await mock.start();
  return mock;
}
