// Decodes the protobuf frames our Go encoder wrote with the official
// @ag-ui/proto 1.0.0 decoder and compares every event with the JSON our Go
// encoder wrote for the same event.
//
// Usage: node decode.mjs <dir>
//   <dir>/stream.bin    the frames, back to back (4-byte big-endian length + ag_ui.Event)
//   <dir>/stream.jsonl  one JSON event per line, in the same order
//
// Exits 0 when every frame decodes and equals its JSON, 1 otherwise, after
// printing every difference.

import { readFileSync } from "node:fs";
import { join } from "node:path";
import { isDeepStrictEqual } from "node:util";
import { decode } from "@ag-ui/proto";

const dir = process.argv[2];
if (!dir) {
  console.error("usage: node decode.mjs <dir>");
  process.exit(2);
}

const bin = readFileSync(join(dir, "stream.bin"));
const expected = readFileSync(join(dir, "stream.jsonl"), "utf8")
  .split("\n")
  .filter((line) => line !== "")
  .map((line) => JSON.parse(line));

// Split the stream the way the client's binary reader does: a frame is a
// 4-byte big-endian length and that many bytes; anything left over is a
// broken stream (fatal in the 1.0 client).
const frames = [];
let offset = 0;
while (offset < bin.length) {
  if (bin.length - offset < 4) {
    fail(`stream ends with ${bin.length - offset} trailing bytes`);
  }
  const size = bin.readUInt32BE(offset);
  if (offset + 4 + size > bin.length) {
    fail(`frame ${frames.length} announces ${size} bytes, only ${bin.length - offset - 4} left`);
  }
  frames.push(new Uint8Array(bin.buffer, bin.byteOffset + offset + 4, size));
  offset += 4 + size;
}
if (frames.length !== expected.length) {
  fail(`${frames.length} frames but ${expected.length} JSON events`);
}

// Normalisations. Each is a fact about what a proto3 encoding can express,
// never a way around a difference in content; each applies at named
// places only, and only when our JSON has no value there.
//
// proto3 cannot tell an empty repeated field from an absent one, so the
// decoder materialises an empty array where the JSON key is optional and
// our JSON omitted it. Likewise a non-optional proto3 string cannot tell ""
// from absent. Every rule below deletes such a decoded default when (and
// only when) our JSON omitted the key.
const EMPTY_ARRAY_WHEN_ABSENT = {
  // RunAgentInput.tools, .context, .resume and .messages are repeated fields;
  // the decoder always writes them. Our JSON omits empty optional arrays.
  input: ["tools", "context", "resume", "messages"],
};
const EMPTY_STRING_WHEN_ABSENT = {
  // Tool.description is a plain (non-optional) proto3 string.
  tool: ["description"],
};

function normalise(decoded, ours) {
  if (decoded.type === "RUN_STARTED" && decoded.input && ours.input) {
    dropDefaults(decoded.input, ours.input, EMPTY_ARRAY_WHEN_ABSENT.input, []);
    for (const [i, tool] of (decoded.input.tools ?? []).entries()) {
      const mine = ours.input.tools?.[i];
      if (mine) dropDefaults(tool, mine, EMPTY_STRING_WHEN_ABSENT.tool, "");
    }
  }
  return decoded;
}

function dropDefaults(decoded, ours, keys, empty) {
  for (const key of keys) {
    if (!(key in ours) && key in decoded && isDeepStrictEqual(decoded[key], empty)) {
      delete decoded[key];
    }
  }
}

// Objects compare without regard to key order: JSON object members are
// unordered, and google.protobuf.Struct is a map.
function sortKeys(value) {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value && typeof value === "object") {
    return Object.fromEntries(
      Object.keys(value)
        .sort()
        .map((k) => [k, sortKeys(value[k])]),
    );
  }
  return value;
}

// Keep the decoder's console warnings (dropped parts, unknown values) in
// our output: a warning means something did not map cleanly.
const warnings = [];
const warn = console.warn;
console.warn = (...args) => {
  warnings.push(args.join(" "));
  warn(...args);
};

let failures = 0;
for (let i = 0; i < frames.length; i++) {
  const ours = expected[i];
  let decoded;
  try {
    decoded = decode(frames[i]);
  } catch (err) {
    failures++;
    console.error(`#${i} ${ours.type}: decode failed: ${err.message}`);
    continue;
  }
  const got = sortKeys(normalise(structuredClone(decoded), ours));
  const want = sortKeys(ours);
  if (!isDeepStrictEqual(got, want)) {
    failures++;
    console.error(`#${i} ${ours.type}: decoded frame differs from our JSON`);
    console.error(`  decoded: ${JSON.stringify(got)}`);
    console.error(`  ours:    ${JSON.stringify(want)}`);
  }
}
if (warnings.length > 0) {
  failures++;
  console.error(`the decoder warned ${warnings.length} time(s)`);
}
if (failures > 0) {
  console.error(`${failures} of ${frames.length} events failed`);
  process.exit(1);
}
console.log(`${frames.length} events decoded by @ag-ui/proto equal our JSON`);

function fail(message) {
  console.error(message);
  process.exit(1);
}
