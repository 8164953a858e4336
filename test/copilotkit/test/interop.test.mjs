// CopilotKit v2 (its pre-1.0 @ag-ui/client inside) completes a chat round
// trip with the Go example app's echo agent, and a useFrontendTool round
// trip with its loop agent on the client's tools, in headless Chromium.
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { once } from "node:events";
import { createReadStream } from "node:fs";
import { mkdir, mkdtemp, rm, stat } from "node:fs/promises";
import { createServer, request } from "node:http";
import { tmpdir } from "node:os";
import { extname, join, normalize, sep } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { after, before, test } from "node:test";
import { chromium } from "playwright-core";
import {
  artifactsDir,
  chromiumArgs,
  chromiumPath,
  startApp,
} from "../../../examples/gin-app/web/test/goapp.mjs";

const here = fileURLToPath(new URL("..", import.meta.url));
const dist = join(here, "dist");
const types = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".woff2": "font/woff2",
  ".woff": "font/woff",
  ".ttf": "font/ttf",
};

let app;
let site;
let context;
let profile;

// serve answers the page and its build output from disk and proxies
// /agents/* to the Go app unbuffered, so the page and the agent share an
// origin as they do when the Go app serves its own page.
function serve(target) {
  const upstream = new URL(target);
  return createServer((req, res) => {
    if (req.url.startsWith("/agents/")) {
      const out = request(
        { host: upstream.hostname, port: upstream.port, path: req.url, method: req.method, headers: req.headers },
        (up) => {
          res.writeHead(up.statusCode, up.headers);
          up.pipe(res);
        },
      );
      out.on("error", () => res.destroy());
      res.on("close", () => out.destroy());
      req.pipe(out);
      return;
    }
    const path = new URL(req.url, "http://x").pathname;
    const file = path === "/" ? join(here, "index.html") : normalize(join(dist, path));
    if (file !== join(here, "index.html") && !file.startsWith(dist + sep)) {
      res.writeHead(404).end();
      return;
    }
    stat(file).then(
      (st) => {
        if (!st.isFile()) throw new Error("not a file");
        res.writeHead(200, { "Content-Type": types[extname(file)] ?? "application/octet-stream" });
        createReadStream(file).pipe(res);
      },
      () => res.writeHead(404).end(),
    );
  });
}

before(async () => {
  await promisify(execFile)("npm", ["run", "build"], { cwd: here });
  await mkdir(artifactsDir, { recursive: true });
  app = await startApp();
  site = serve(app.url);
  site.listen(0, "127.0.0.1");
  await once(site, "listening");
  profile = await mkdtemp(join(tmpdir(), "chromium-profile-"));
  context = await chromium.launchPersistentContext(profile, {
    executablePath: chromiumPath,
    headless: true,
    args: chromiumArgs,
    viewport: { width: 1000, height: 700 },
  });
});

after(async () => {
  await context?.close();
  if (site) {
    site.closeAllConnections();
    site.close();
  }
  await app?.stop();
  if (profile) await rm(profile, { recursive: true, force: true });
});

test("CopilotChat completes two round trips with the echo agent", async () => {
  const page = await context.newPage();
  const errors = [];
  page.on("console", (msg) => {
    if (msg.type() === "error") errors.push(`console: ${msg.text()}`);
  });
  page.on("pageerror", (err) => errors.push(`pageerror: ${err.message}`));
  const { port } = site.address();
  await page.goto(`http://127.0.0.1:${port}/`);

  const text = "hello from CopilotKit";
  const input = page.getByPlaceholder("Message");
  await input.fill(text);
  const runRequest = page.waitForRequest((r) => r.method() === "POST" && r.url().endsWith("/agents/echo"));
  const runResponse = page.waitForResponse((r) => r.url().endsWith("/agents/echo"));
  await input.press("Enter");

  const body = (await runRequest).postDataJSON();
  assert.equal(body.protocolVersion, undefined, "CopilotKit's client now declares a protocol version");
  const response = await runResponse;
  assert.equal(response.status(), 200);
  assert.equal(response.headers()["content-type"], "text/event-stream");

  // The user's bubble and the agent's echo: the text shows twice.
  await page.waitForFunction((t) => document.body.innerText.split(t).length - 1 >= 2, text);
  await app.waitForLog(new RegExp(`msg="agui run" .*run_id=${body.runId} outcome=success`));

  // A second turn gets its own reply; the first one is left as it was.
  const second = "and a second turn";
  await input.fill(second);
  await input.press("Enter");
  await page.waitForFunction((t) => document.body.innerText.split(t).length - 1 >= 2, second);
  const shown = await page.evaluate(() => document.body.innerText);
  assert.equal(shown.split(text).length - 1, 2, `the first reply changed:\n${shown}`);
  assert.ok(!shown.includes(text + second), `the second reply was appended to the first:\n${shown}`);
  await page.screenshot({ path: join(artifactsDir, "copilotkit-echo.png"), fullPage: true });
  assert.deepEqual(errors, [], "the page logged errors");
  await page.close();
});

test("useFrontendTool: the loop agent calls the page's tool, CopilotKit runs it and the agent answers with its result", async () => {
  const page = await context.newPage();
  const errors = [];
  page.on("console", (msg) => {
    if (msg.type() === "error") errors.push(`console: ${msg.text()}`);
  });
  page.on("pageerror", (err) => errors.push(`pageerror: ${err.message}`));
  const runs = [];
  page.on("request", (r) => {
    if (r.method() === "POST" && r.url().endsWith("/agents/frontend")) runs.push(r.postDataJSON());
  });
  const { port } = site.address();
  await page.goto(`http://127.0.0.1:${port}/?agent=frontend`);

  const input = page.getByPlaceholder("Message");
  await input.fill("make the page teal");
  await input.press("Enter");

  // The tool ran in the page, and the agent's answer quotes its result.
  await page.waitForFunction(() => document.body.dataset.theme === "teal");
  await page.waitForFunction(() => document.body.innerText.includes("The page's tool answered: The theme colour is now teal."));
  assert.ok(runs.length >= 2, `${runs.length} runs`);
  assert.deepEqual(
    runs[0].tools.map((t) => t.name),
    ["set_theme_color"],
  );
  const result = runs[1].messages.find((m) => m.role === "tool");
  assert.equal(result?.content, "The theme colour is now teal.");
  await page.screenshot({ path: join(artifactsDir, "copilotkit-frontend-tool.png"), fullPage: true });
  assert.deepEqual(errors, [], "the page logged errors");
  await page.close();
});
