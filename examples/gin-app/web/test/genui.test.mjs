// Generative UI on the chat page in headless Chromium against the real Go
// example app: the greeting a first-time user sees (the route's
// description and suggested prompts, from its capabilities), an A2UI
// surface painted from /agents/a2ui's events whose button sends a user
// action back, and /agents/plan's progress list following its state.
import assert from "node:assert/strict";
import { mkdir, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, test } from "node:test";
import { chromium } from "playwright-core";
import { artifactsDir, chromiumArgs, chromiumPath, startApp } from "./goapp.mjs";

let app;
let context;
let profile;

before(async () => {
  await mkdir(artifactsDir, { recursive: true });
  app = await startApp();
  profile = await mkdtemp(join(tmpdir(), "chromium-profile-"));
  context = await chromium.launchPersistentContext(profile, {
    executablePath: chromiumPath,
    headless: true,
    args: chromiumArgs,
    viewport: { width: 1100, height: 700 },
  });
});

after(async () => {
  await context?.close();
  await app?.stop();
  if (profile) await rm(profile, { recursive: true, force: true });
});

// open loads the page as a newcomer opens a link to a route, recording
// errors and the run requests the page makes.
async function open(route) {
  const page = await context.newPage();
  const errors = [];
  const runs = [];
  page.on("console", (msg) => {
    if (msg.type() === "error") errors.push(`console: ${msg.text()}`);
  });
  page.on("pageerror", (err) => errors.push(`pageerror: ${err.message}`));
  page.on("request", (req) => {
    if (req.method() === "POST" && req.url().endsWith(route)) runs.push(req);
  });
  await page.goto(`${app.url}/?agent=${encodeURIComponent(route)}`);
  await page.locator("#status").filter({ hasText: "ready" }).waitFor();
  return { page, errors, runs, status: page.locator("#status") };
}

// events parses a run's SSE answer.
async function events(response) {
  return (await response.text())
    .split("\n")
    .filter((l) => l.startsWith("data: "))
    .map((l) => JSON.parse(l.slice(6)));
}

test("a route greets a newcomer with its description and suggestions; a suggestion sends itself", async () => {
  const { page, errors } = await open("/agents/a2ui");
  const caps = await (await fetch(`${app.url}/agents/a2ui/capabilities`)).json();
  const greeting = page.locator("li.greeting");
  await greeting.filter({ hasText: caps.identity.description }).waitFor();
  assert.equal(await greeting.locator("h2").textContent(), "a2ui");
  const buttons = greeting.getByRole("button");
  assert.deepEqual(
    await buttons.allTextContents(),
    caps.custom.suggestions.map((s) => s.title),
  );
  await page.screenshot({ path: join(artifactsDir, "web-greeting.png"), fullPage: true });

  // Another route, another greeting.
  await page.getByLabel("Agent").selectOption("/agents/plan");
  const plan = await (await fetch(`${app.url}/agents/plan/capabilities`)).json();
  await greeting.filter({ hasText: plan.identity.description }).waitFor();

  const [first] = plan.custom.suggestions;
  await greeting.getByRole("button", { name: first.title }).click();
  await page.locator("li[data-role=user]").filter({ hasText: first.message }).waitFor();
  assert.equal(await greeting.count(), 0, "the greeting stays once the conversation started");
  await page.locator("#status").filter({ hasText: /^done$/ }).waitFor();
  assert.deepEqual(errors, [], "the page logged errors");
  await page.close();
});

test("a2ui: the surface paints, and its button sends the user action in forwardedProps", async () => {
  const { page, errors, runs, status } = await open("/agents/a2ui");
  const answered = page.waitForResponse((r) => r.url().endsWith("/agents/a2ui"));
  await page.locator("li.greeting").getByRole("button", { name: "Show a trip" }).click();
  const evs = await events(await answered);
  assert.ok(evs.some((e) => e.type === "ACTIVITY_SNAPSHOT" && e.activityType === "a2ui-surface"), "no a2ui-surface activity");
  await status.filter({ hasText: /^done$/ }).waitFor();

  // One surface, painted once though the activity and the tool result both
  // carry it, with its data model bound in.
  const surface = page.locator(".a2ui-surface[data-surface-id=trip]");
  assert.equal(await surface.count(), 1);
  assert.equal(await surface.locator("h3").textContent(), "A weekend in Oslo");
  assert.equal(await surface.locator("small").first().textContent(), "2 nights · from €420 for two");
  assert.deepEqual(await surface.locator("[data-component-id=highlight]").allTextContents(), [
    "Sauna on the fjord",
    "The Munch museum",
    "Dinner at Mathallen",
  ]);
  assert.ok(await surface.locator(".a2ui-card").isVisible());
  await page.screenshot({ path: join(artifactsDir, "web-a2ui.png"), fullPage: true });

  const before = runs.length;
  const clicked = page.waitForResponse((r) => r.url().endsWith("/agents/a2ui"));
  await surface.getByRole("button", { name: "Book it" }).click();
  await clicked;
  const input = runs[before].postDataJSON();
  assert.deepEqual(input.forwardedProps.a2uiAction.userAction.context, { city: "Oslo", nights: 2 });
  const { name, surfaceId, sourceComponentId } = input.forwardedProps.a2uiAction.userAction;
  assert.deepEqual({ name, surfaceId, sourceComponentId }, { name: "book_trip", surfaceId: "trip", sourceComponentId: "book" });
  // The server read the action (a2ui.InsertAction told the model).
  await page
    .locator("li[data-role=assistant]")
    .filter({ hasText: 'User performed action "book_trip" on surface "trip" (component: book). Context: {"city":"Oslo","nights":2}' })
    .waitFor();
  await status.filter({ hasText: /^done$/ }).waitFor();
  assert.equal(await surface.locator("[data-pressed=true]").textContent(), "Book it");
  assert.ok(await surface.getByRole("button", { name: "Not now" }).isDisabled(), "a pressed surface takes no second press");
  await page.screenshot({ path: join(artifactsDir, "web-a2ui-pressed.png"), fullPage: true });
  assert.deepEqual(errors, [], "the page logged errors");
  await page.close();
});

test("plan: the progress list follows the state's snapshot and deltas to done", async () => {
  const { page, errors, status } = await open("/agents/plan");
  // Record every progress list the page shows.
  await page.evaluate(() => {
    window.seen = [];
    new MutationObserver(() => {
      const s = [...document.querySelectorAll("li.progress ol li")].map((li) => li.dataset.status).join(",");
      if (s && s !== window.seen.at(-1)) window.seen.push(s);
    }).observe(document.getElementById("messages"), { childList: true, subtree: true });
  });
  const answered = page.waitForResponse((r) => r.url().endsWith("/agents/plan"));
  await page.locator("li.greeting").getByRole("button", { name: "Plan a trip" }).click();
  await page.locator("li.progress ol li[data-status=pending]").first().waitFor();
  await status.filter({ hasText: /^done$/ }).waitFor();
  const types = (await events(await answered)).map((e) => e.type);
  assert.equal(types.filter((t) => t === "STATE_SNAPSHOT").length, 1);
  assert.equal(types.filter((t) => t === "STATE_DELTA").length, 4);

  const steps = page.locator("li.progress ol li");
  assert.deepEqual(await steps.allTextContents(), ["Check the weather", "Compare trains and flights", "Pick a hotel", "Write the itinerary"]);
  assert.deepEqual(await steps.evaluateAll((els) => els.map((e) => e.dataset.status)), Array(4).fill("completed"));
  assert.equal(await page.locator(".progress-head").textContent(), "Plan done: 4 of 4 steps");
  // The list went from all pending to all completed, ticking steps off in
  // order, and was seen part done. (Each step takes 400 ms on the server;
  // a browser that stalled longer may paint two deltas at once, so the
  // test does not ask for every intermediate list.)
  const seen = await page.evaluate(() => window.seen);
  assert.equal(seen[0], "pending,pending,pending,pending");
  assert.equal(seen.at(-1), "completed,completed,completed,completed");
  for (const [i, s] of seen.entries()) {
    const done = s.split(",");
    const n = done.filter((x) => x === "completed").length;
    assert.ok(done.slice(0, n).every((x) => x === "completed"), `steps completed out of order: ${s}`);
    if (i > 0) assert.ok(n >= seen[i - 1].split(",").filter((x) => x === "completed").length, `progress went back: ${seen}`);
  }
  assert.ok(seen.length >= 3, `no list part done among ${JSON.stringify(seen)}`);
  await page.screenshot({ path: join(artifactsDir, "web-plan.png"), fullPage: true });
  assert.deepEqual(errors, [], "the page logged errors");
  await page.close();
});
