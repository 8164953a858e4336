// The chat page in headless Chromium against the real Go example app.
import assert from "node:assert/strict";
import { mkdir, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { chromium } from "playwright-core";
import { artifactsDir, chromiumArgs, chromiumPath, startApp } from "./goapp.mjs";

let app;
let context;
let profile;

before(async () => {
  await mkdir(artifactsDir, { recursive: true });
  app = await startApp();
  // A persistent context is how Playwright takes a fresh profile; it
  // refuses --user-data-dir in args.
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

// open loads the page on route and records console errors, page errors and
// the agent requests it makes.
async function open(route = "/agents/echo") {
  const page = await context.newPage();
  const errors = [];
  const runs = [];
  page.on("console", (msg) => {
    if (msg.type() === "error") errors.push(`console: ${msg.text()}`);
  });
  page.on("pageerror", (err) => errors.push(`pageerror: ${err.message}`));
  page.on("request", (req) => {
    if (req.method() === "POST") runs.push(req);
  });
  await page.goto(app.url + "/");
  await page.locator("#status").filter({ hasText: "ready" }).waitFor();
  if (route !== "/agents/echo") {
    await page.getByLabel("Agent").selectOption(route);
  }
  const status = page.locator("#status");
  return {
    page,
    errors,
    runs,
    status,
    assistant: page.locator("li[data-role=assistant]"),
    async send(text) {
      await page.getByLabel("Message").fill(text);
      await page.getByLabel("Message").press("Enter");
    },
    async settled() {
      await page.waitForFunction(() => document.body.dataset.running === "false");
    },
    async finish(name) {
      await page.screenshot({ path: join(artifactsDir, `web-${name}.png`), fullPage: true });
      assert.deepEqual(errors, [], "the page logged errors");
      await page.close();
    },
  };
}

describe("chat page", () => {
  test("offers every agent route with echo selected", async () => {
    const p = await open();
    const options = await p.page.locator("#agent option").evaluateAll((os) => os.map((o) => o.value));
    for (const route of ["/agents/echo", "/agents/slow", "/agents/approver", "/agents/flaky", "/agents/supervisor", "/agents/editor", "/agents/tools", "/agents/loop", "/agents/frontend"]) {
      assert.ok(options.includes(route), `picker lacks ${route}: ${options}`);
    }
    // GET /agents lists only the routes this caller may use: no token here.
    assert.ok(!options.includes("/agents/private/echo"), `picker offers the private route: ${options}`);
    assert.equal(await p.page.getByLabel("Agent").inputValue(), "/agents/echo");
    await p.finish("start");
  });

  test("two turns on echo make two replies; the first is kept", async () => {
    const p = await open();
    const response = p.page.waitForResponse((r) => r.url().endsWith("/agents/echo"));
    await p.send("hello there");
    assert.equal((await response).headers()["content-type"], "text/event-stream");
    await p.status.filter({ hasText: /^done$/ }).waitFor();
    await p.send("second turn");
    await p.assistant.nth(1).filter({ hasText: "second turn" }).waitFor();
    await p.status.filter({ hasText: /^done$/ }).waitFor();

    assert.deepEqual(await p.assistant.allTextContents(), ["hello there", "second turn"]);
    assert.deepEqual(await p.page.locator("li[data-role=user]").allTextContents(), ["hello there", "second turn"]);
    const ids = await p.assistant.evaluateAll((els) => els.map((e) => e.dataset.id));
    assert.notEqual(ids[0], ids[1], "the server reused a message id across runs");
    // The second request carried the whole conversation so far.
    const body = p.runs[1].postDataJSON();
    assert.equal(body.protocolVersion, "1.0");
    assert.equal(body.messages.length, 3);
    await p.finish("echo-two-turns");
  });

  test("slow streams: the reply grows while the run is open, and Stop ends it", async () => {
    const p = await open("/agents/slow");
    await p.send("count for me");
    const reply = p.assistant.first();
    await reply.filter({ hasText: /\S/ }).waitFor();
    const first = await reply.textContent();
    assert.equal(await p.page.evaluate(() => document.body.dataset.running), "true");
    // A buffered stream would show everything at once at the end; here the
    // text grows again while the run is still open.
    await p.page.waitForFunction(
      (prev) => {
        const text = document.querySelector("li[data-role=assistant]").textContent;
        return text.length > prev.length && text.startsWith(prev) && document.body.dataset.running === "true";
      },
      first,
    );
    await p.page.screenshot({ path: join(artifactsDir, "web-slow-streaming.png"), fullPage: true });

    await p.page.getByRole("button", { name: "Stop" }).click();
    await p.status.filter({ hasText: /^stopped$/ }).waitFor();
    await p.settled();
    assert.ok(await p.page.getByRole("button", { name: "Stop" }).isDisabled());
    // The server saw the client go and logged the run as disconnected.
    const runID = p.runs[0].postDataJSON().runId;
    await app.waitForLog(new RegExp(`msg="agui run" .*run_id=${runID} outcome=disconnected`));
    await p.finish("slow-stopped");
  });

  test("approver: Approve resumes on a new run and the agent acts", async () => {
    const p = await open("/agents/approver");
    await p.send("clean up");
    const prompt = p.page.locator("#interrupt");
    await prompt.filter({ hasText: "Delete everything?" }).waitFor();
    assert.equal(await p.status.textContent(), "waiting for approval");
    assert.ok(await p.page.getByLabel("Message").isDisabled(), "new text is refused while an interrupt is open");
    await p.page.screenshot({ path: join(artifactsDir, "web-approver-waiting.png"), fullPage: true });

    await p.page.getByRole("button", { name: "Approve" }).click();
    await p.assistant.filter({ hasText: "Done." }).waitFor();
    await p.status.filter({ hasText: /^done$/ }).waitFor();
    assert.ok(await prompt.isHidden());
    assert.equal(p.runs.length, 2);
    assert.deepEqual(p.runs[1].postDataJSON().resume, [{ interruptId: "delete-everything", status: "resolved" }]);
    assert.notEqual(p.runs[0].postDataJSON().runId, p.runs[1].postDataJSON().runId);
    await p.finish("approver-approved");
  });

  test("approver: Reject cancels the interrupt", async () => {
    const p = await open("/agents/approver");
    await p.send("clean up");
    await p.page.getByRole("button", { name: "Reject" }).click();
    await p.assistant.filter({ hasText: "Cancelled." }).waitFor();
    assert.deepEqual(p.runs[1].postDataJSON().resume, [{ interruptId: "delete-everything", status: "cancelled" }]);
    await p.finish("approver-rejected");
  });

  // The loop's first turn: reasoning, text, then get_weather (run at once)
  // and book_trip (held for approval), each shown the way the page shows
  // tool calls: "→ name(args)" in the assistant bubble, "← result" below.
  const loopTurn = [
    "The user wants a trip: check the weather, then book.",
    'Let me check the weather and book your trip.\n→ get_weather({"city":"Oslo"})\n→ book_trip({"city":"Oslo","nights":2})',
    '← {"city":"Oslo","sky":"sunny","tempC":21}',
  ];
  const conversation = (p) => p.page.locator("#messages > li").allTextContents();

  // waitForLoopApproval sends a message on the loop route and resolves, once
  // the run has paused, with the interrupt the server raised.
  async function waitForLoopApproval(p) {
    const response = p.page.waitForResponse((r) => r.url().endsWith("/agents/loop"));
    await p.send("Plan a weekend in Oslo");
    const prompt = p.page.locator("#interrupt");
    await prompt.filter({ hasText: "Approve the call to book_trip?" }).waitFor();
    await p.status.filter({ hasText: /^waiting for approval$/ }).waitFor();
    await p.settled();
    const events = (await (await response).text())
      .split("\n")
      .filter((l) => l.startsWith("data: "))
      .map((l) => JSON.parse(l.slice(6)));
    const finished = events.at(-1);
    assert.equal(finished.type, "RUN_FINISHED");
    assert.equal(finished.outcome.type, "interrupt");
    const [interrupt] = finished.outcome.interrupts;
    assert.equal(interrupt.reason, "tool_approval");
    return { prompt, interrupt };
  }

  test("loop: book_trip waits for approval; Approve runs it and the run finishes", async () => {
    const p = await open("/agents/loop");
    const { prompt, interrupt } = await waitForLoopApproval(p);
    // The prompt names the held call with its arguments.
    assert.equal(
      await p.page.locator("#interrupt-text").textContent(),
      'Approve the call to book_trip?\nbook_trip({"city":"Oslo","nights":2})',
    );
    assert.deepEqual(await conversation(p), ["Plan a weekend in Oslo", ...loopTurn]);
    assert.ok(await p.page.getByLabel("Message").isDisabled(), "new text is refused while an interrupt is open");
    await p.page.screenshot({ path: join(artifactsDir, "web-loop-waiting.png"), fullPage: true });

    await p.page.getByRole("button", { name: "Approve" }).click();
    await p.status.filter({ hasText: /^done$/ }).waitFor();
    await p.settled();
    assert.ok(await prompt.isHidden());
    assert.deepEqual(await conversation(p), [
      "Plan a weekend in Oslo",
      ...loopTurn,
      "← booked 2 nights in Oslo",
      "Oslo is sunny at 21°C. Your trip is settled as you decided.",
    ]);
    // The resume answers the interrupt's responseSchema on a new run.
    assert.equal(p.runs.length, 2);
    assert.deepEqual(p.runs[1].postDataJSON().resume, [
      { interruptId: interrupt.id, status: "resolved", payload: { approved: true } },
    ]);
    assert.notEqual(p.runs[0].postDataJSON().runId, p.runs[1].postDataJSON().runId);
    await p.finish("loop-approved");
  });

  test("loop: Reject records the refusal as book_trip's result and the run finishes", async () => {
    const p = await open("/agents/loop");
    const { interrupt } = await waitForLoopApproval(p);
    await p.page.getByRole("button", { name: "Reject" }).click();
    await p.status.filter({ hasText: /^done$/ }).waitFor();
    await p.settled();
    assert.deepEqual(await conversation(p), [
      "Plan a weekend in Oslo",
      ...loopTurn,
      '← {"error":"rejected","message":"rejected by user"}',
      "Oslo is sunny at 21°C. Your trip is settled as you decided.",
    ]);
    assert.deepEqual(p.runs[1].postDataJSON().resume, [
      { interruptId: interrupt.id, status: "resolved", payload: { approved: false } },
    ]);
    await p.finish("loop-rejected");
  });

  test("frontend: the page's tool runs on the model's call, the next turn uses its result, a reload shows the thread", async () => {
    const p = await open("/agents/frontend");
    await p.send("make the page colourful");
    await p.status.filter({ hasText: /^done$/ }).waitFor();
    await p.settled();
    // The model called set_theme_color; the page ran it and sent the
    // result on a second run, whose answer quotes it.
    assert.equal(await p.page.evaluate(() => document.body.dataset.theme), "teal");
    assert.equal(p.runs.length, 2);
    const first = p.runs[0].postDataJSON();
    assert.deepEqual(first.tools.map((t) => t.name), ["set_theme_color"]);
    const second = p.runs[1].postDataJSON();
    const result = second.messages.find((m) => m.role === "tool");
    assert.equal(result.content, "The page's theme colour is now teal.");
    const before = await conversation(p);
    assert.equal(before.length, 4);
    assert.match(before[1], /→ set_theme_color\(\{"color":"teal"\}\)/);
    assert.equal(before[2], "← The page's theme colour is now teal.");
    assert.match(before[3], /The page's theme colour is now teal\./);
    // The colour was mirrored into the shared state while it streamed.
    assert.deepEqual(JSON.parse(await p.page.locator("#state").textContent()), { theme: "teal" });
    await p.page.screenshot({ path: join(artifactsDir, "web-frontend-tool.png"), fullPage: true });

    // The address names the thread: a reload reads it back from the server.
    const url = new URL(p.page.url());
    assert.equal(url.searchParams.get("agent"), "/agents/frontend");
    assert.equal(url.searchParams.get("thread"), first.threadId);
    await p.page.reload();
    await p.status.filter({ hasText: /^thread loaded$/ }).waitFor();
    assert.equal(await p.page.getByLabel("Agent").inputValue(), "/agents/frontend");
    assert.deepEqual(await conversation(p), before);
    assert.deepEqual(JSON.parse(await p.page.locator("#state").textContent()), { theme: "teal" });
    assert.equal(await p.page.evaluate(() => document.body.dataset.theme), "teal", "the reloaded state colours the page");
    await p.finish("frontend-reloaded");
  });

  test("flaky: RUN_ERROR is shown, the partial reply stays", async () => {
    const p = await open("/agents/flaky");
    await p.send("weather?");
    await p.status.filter({ hasText: /^error: / }).waitFor();
    await p.settled();
    assert.match(await p.status.textContent(), /the weather service is down \(AGENT_ERROR\)/);
    assert.equal(await p.status.getAttribute("class"), "error");
    assert.deepEqual(await p.assistant.allTextContents(), ["Looking that up."]);
    await p.finish("flaky-error");
  });

  test("private echo without a token: the transport failure is shown", async () => {
    const p = await open();
    // The picker does not offer the private route to a caller without the
    // token; add it as a stale page or a typed URL would.
    await p.page.locator("#agent").evaluate((s) => s.add(new Option("/agents/private/echo", "/agents/private/echo")));
    await p.page.getByLabel("Agent").selectOption("/agents/private/echo");
    await p.send("let me in");
    await p.status.filter({ hasText: /^failed: / }).waitFor();
    await p.settled();
    assert.match(await p.status.textContent(), /401/);
    assert.equal(await p.assistant.count(), 0);
    // The refused request and the client's own report are the only errors.
    assert.ok(p.errors.length > 0 && p.errors.every((e) => /401|Agent execution failed/.test(e)), p.errors.join("\n"));
    p.errors.length = 0;
    await p.finish("private-refused");
  });

  test("supervisor: subagent output is grouped under each subagent's name", async () => {
    const p = await open("/agents/supervisor");
    await p.send("plan the quarter");
    await p.status.filter({ hasText: /^done$/ }).waitFor();
    const groups = await p.page.locator("li.subagent").evaluateAll((els) =>
      els.map((g) => [g.querySelector(".subagent-name").textContent, g.querySelector("ul").textContent]),
    );
    assert.deepEqual(groups, [
      ["planner", "Two tasks: scope, then risks."],
      ["planner › estimator", "About a day each."],
    ]);
    // The supervisor's own answer stays outside the groups.
    assert.equal(await p.page.locator("#messages > li[data-role=assistant]").textContent(), "Plan ready.");
    await p.finish("supervisor-groups");
  });

  test("editor and tools: the state panel follows the shared state", async () => {
    const p = await open("/agents/editor");
    await p.send("name my draft");
    await p.status.filter({ hasText: /^done$/ }).waitFor();
    assert.deepEqual(JSON.parse(await p.page.locator("#state").textContent()), { revision: 1, title: "Q3 plan" });
    assert.equal(await p.page.locator("li[data-role=reasoning]").textContent(), "The user wants a title.");
    await p.page.screenshot({ path: join(artifactsDir, "web-editor-state.png"), fullPage: true });

    await p.page.getByLabel("Agent").selectOption("/agents/tools");
    await p.send("find plans");
    await p.status.filter({ hasText: /^done$/ }).waitFor();
    assert.deepEqual(JSON.parse(await p.page.locator("#state").textContent()), { search: { hits: ["Q3 plan", "Q4 plan"] } });
    assert.match(await p.assistant.first().textContent(), /→ search\(/);
    await p.finish("tools-state");
  });
});
