// The committed dist/app.js must be exactly what `npm run build` makes from
// src/, so the binary never embeds a stale page.
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { test } from "node:test";

const web = fileURLToPath(new URL("..", import.meta.url));

test("dist/app.js equals a fresh build", async () => {
  const pkg = JSON.parse(await readFile(join(web, "package.json"), "utf8"));
  const [bin, ...args] = pkg.scripts.build.split(" ");
  assert.equal(bin, "esbuild");
  const outfile = args.findIndex((a) => a === "--outfile=dist/app.js");
  assert.notEqual(outfile, -1, "the build script no longer writes dist/app.js");
  const dir = await mkdtemp(join(tmpdir(), "web-bundle-"));
  try {
    args[outfile] = `--outfile=${join(dir, "app.js")}`;
    await promisify(execFile)(join(web, "node_modules", ".bin", "esbuild"), args, { cwd: web });
    const [fresh, committed] = await Promise.all([readFile(join(dir, "app.js")), readFile(join(web, "dist", "app.js"))]);
    assert.ok(fresh.equals(committed), "dist/app.js is stale: run `npm run build` in examples/gin-app/web and commit it");
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
