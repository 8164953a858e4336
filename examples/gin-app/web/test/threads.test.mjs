// The chat page's thread panel in headless Chromium against the real Go
// example app, its loop route naming threads (-titles): the page lists the
// user's threads, switches between them, renames and deletes one.
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
  app = await startApp(["-titles"]);
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

// The loop route's scripted model answers the naming call with its last
// turn, which the title is cut from.
const title = "Oslo is sunny at 21°C. Your trip is settled as you decided";

test("the thread panel lists, switches, renames and deletes the user's threads", async () => {
  const page = await context.newPage();
  const errors = [];
  page.on("console", (msg) => {
    if (msg.type() === "error") errors.push(`console: ${msg.text()}`);
  });
  page.on("pageerror", (err) => errors.push(`pageerror: ${err.message}`));
  await page.goto(app.url + "/");
  await page.locator("#status").filter({ hasText: "ready" }).waitFor();
  assert.equal(await page.locator("#threads-panel").isHidden(), true, "echo has no thread panel");
  await page.getByLabel("Agent").selectOption("/agents/loop");
  await page.locator("#threads-panel").waitFor();
  const items = page.locator("#threads li");
  const status = page.locator("#status");

  // One exchange: an approval, then the answer, then the title.
  async function exchange(text) {
    await page.getByLabel("Message").fill(text);
    await page.getByLabel("Message").press("Enter");
    await status.filter({ hasText: "waiting for approval" }).waitFor();
    await page.getByRole("button", { name: "Approve" }).click();
    await status.filter({ hasText: /^done$/ }).waitFor();
  }

  await exchange("plan a trip to Oslo");
  const first = await page.evaluate(() => new URLSearchParams(location.search).get("thread"));
  // The CUSTOM thread.title event names the thread in the panel and the tab.
  await items.filter({ hasText: title }).waitFor();
  assert.equal(await page.title(), `${title} · agui-go example`);
  assert.equal(await items.count(), 1);

  await page.getByRole("button", { name: "New" }).click();
  await page.locator("li[data-role=user]").waitFor({ state: "detached" });
  await exchange("and one to Bergen");
  const second = await page.evaluate(() => new URLSearchParams(location.search).get("thread"));
  assert.notEqual(second, first);
  await page.waitForFunction(() => document.querySelectorAll("#threads li").length === 2);
  assert.deepEqual(await items.evaluateAll((els) => els.map((e) => e.dataset.threadId)), [second, first], "newest first");
  assert.equal(await items.first().getAttribute("class"), "current");

  // Switch to the first thread: its conversation comes back.
  await page.locator(`#threads li[data-thread-id="${first}"] .open`).click();
  await page.locator("li[data-role=user]").filter({ hasText: "plan a trip to Oslo" }).waitFor();
  assert.equal(await page.evaluate(() => new URLSearchParams(location.search).get("thread")), first);
  await page.locator(`#threads li.current[data-thread-id="${first}"]`).waitFor();

  // Rename it.
  page.once("dialog", (d) => d.accept("Oslo in May"));
  await page.locator(`#threads li[data-thread-id="${first}"] .rename`).click();
  await page.locator(`#threads li[data-thread-id="${first}"] .open`).filter({ hasText: "Oslo in May" }).waitFor();

  // Delete the other one.
  await page.locator(`#threads li[data-thread-id="${second}"] .delete`).click();
  await page.waitForFunction(() => document.querySelectorAll("#threads li").length === 1);
  const gone = await fetch(`${app.url}/agents/loop/threads/${second}`);
  assert.equal(gone.status, 404, "the deleted thread is still served");
  const kept = await (await fetch(`${app.url}/agents/loop/threads?limit=10`)).json();
  assert.deepEqual(kept.threads.map((t) => [t.id, t.title]), [[first, "Oslo in May"]]);

  await page.screenshot({ path: join(artifactsDir, "web-threads.png"), fullPage: true });
  assert.deepEqual(errors, [], "the page logged errors");
  await page.close();
});
