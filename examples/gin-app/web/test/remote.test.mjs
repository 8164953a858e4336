// The chat page in headless Chromium on /agents/remote, with the app's
// -remote-url pointing at test/nodeserver's server.mjs: an AG-UI agent
// whose every event is built and encoded by the official @ag-ui/core and
// @ag-ui/encoder, served to the page through package remote.
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { once } from "node:events";
import { mkdir, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, test } from "node:test";
import { chromium } from "playwright-core";
import { artifactsDir, chromiumArgs, chromiumPath, repoRoot, startApp } from "./goapp.mjs";

let node;
let app;
let context;
let profile;

// startNodeAgent runs server.mjs (its packages installed by test/browser.sh)
// and resolves with its base URL once it prints "listening PORT".
async function startNodeAgent() {
  const proc = spawn(process.execPath, ["server.mjs"], { cwd: join(repoRoot, "test", "nodeserver"), stdio: ["ignore", "pipe", "inherit"] });
  proc.stdout.setEncoding("utf8");
  let out = "";
  const port = await new Promise((resolve, reject) => {
    proc.stdout.on("data", (chunk) => {
      out += chunk;
      const m = /^listening (\d+)$/m.exec(out);
      if (m) resolve(m[1]);
    });
    proc.on("exit", (code) => reject(new Error(`node server.mjs exited (${code}): ${out}`)));
  });
  return {
    url: `http://127.0.0.1:${port}`,
    async stop() {
      if (proc.exitCode === null) {
        proc.kill("SIGTERM");
        await once(proc, "exit");
      }
    },
  };
}

before(async () => {
  await mkdir(artifactsDir, { recursive: true });
  node = await startNodeAgent();
  app = await startApp(["-remote-url", `${node.url}/agents/chat`]);
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
  await node?.stop();
  if (profile) await rm(profile, { recursive: true, force: true });
});

test("the page chats with a Node agent through /agents/remote", async () => {
  const page = await context.newPage();
  const errors = [];
  page.on("console", (msg) => {
    if (msg.type() === "error") errors.push(`console: ${msg.text()}`);
  });
  page.on("pageerror", (err) => errors.push(`pageerror: ${err.message}`));
  await page.goto(app.url + "/");
  await page.locator("#status").filter({ hasText: "ready" }).waitFor();
  await page.getByLabel("Agent").selectOption("/agents/remote");
  await page.getByLabel("Message").fill("Weather in Lisbon?");
  await page.getByLabel("Message").press("Enter");
  await page.locator("#status").filter({ hasText: /^done$/ }).waitFor();

  // The messages and state the Node agent's events reduce to, as the Go
  // and official clients reduce them in test/nodeserver.
  const bubbles = await page.locator("li[data-role]").evaluateAll((els) => els.map((e) => [e.dataset.role, e.textContent]));
  assert.deepEqual(bubbles, [
    ["user", "Weather in Lisbon?"],
    ["reasoning", "The user wants the weather."],
    ["assistant", 'You asked: Weather in Lisbon?\n→ weather({"city":"Lisbon"})'],
    ["tool", '← {"celsius":21}'],
    ["assistant", "It is 21 °C in Lisbon."],
  ]);
  assert.deepEqual(JSON.parse(await page.locator("#state").textContent()), { city: "Lisboa", steps: ["weather"], celsius: 21 });
  await page.screenshot({ path: join(artifactsDir, "web-remote-node.png"), fullPage: true });
  assert.deepEqual(errors, [], "the page logged errors");
  await page.close();
});
