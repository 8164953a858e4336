// Decodes the protobuf frames our Go encoder wrote with the official
// @ag-ui/proto 1.0.0 decoder and compares every event with the JSON our Go
// encoder wrote for the same event.
//
// Usage: node decode.mjs <dir>
//   <dir>/stream.bin    the frames, back to back (4-byte big-endian length + ag_ui.Event)
//   <dir>/stream.jsonl  one JSON event per line, in the same order
//
// It also writes <dir>/official.bin: the official encoder's frames for our
// JSON, which the Go test decodes with agui.DecodeProto.
//
// Exits 0 when every frame decodes and equals its JSON (and the official
// encoder accepts every JSON event without a warning), 1 otherwise, after
// printing every difference.

import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { isDeepStrictEqual } from "node:util";
import { decode, encode } from "@ag-ui/proto";

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

// Normalisation. proto3 cannot tell an empty repeated field from an absent
// one, and the decoder always materialises RunAgentInput's repeated fields
// as arrays. Our JSON always writes messages, tools and context (as [] when
// empty) but omits an empty resume, which is optional. So a decoded
// `input.resume: []` is dropped, and only when our JSON has no resume key.
// This is the only difference found between the two encodings; anything
// else fails.
function normalise(decoded, ours) {
  const input = decoded.type === "RUN_STARTED" ? decoded.input : undefined;
  if (input && ours.input && !("resume" in ours.input) && isDeepStrictEqual(input.resume, [])) {
    delete input.resume;
  }
  return decoded;
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
// The other direction: the official encoder's frames for our JSON, for the
// Go side to decode with agui.DecodeProto. How many are byte-identical to
// ours is reported, not required: protobuf does not fix the order of map
// entries, and both encodings are valid.
const official = [];
let identical = 0;
for (let i = 0; i < expected.length; i++) {
  let bytes;
  try {
    bytes = encode(structuredClone(expected[i]));
  } catch (err) {
    failures++;
    console.error(`#${i} ${expected[i].type}: the official encoder refused our JSON: ${err.message}`);
    bytes = new Uint8Array();
  }
  const prefix = Buffer.alloc(4);
  prefix.writeUInt32BE(bytes.length);
  official.push(prefix, bytes);
  if (Buffer.compare(Buffer.from(bytes), Buffer.from(frames[i])) === 0) {
    identical++;
  } else if (process.env.PROTONODE_VERBOSE) {
    console.log(`#${i} ${expected[i].type}: bytes differ\n  official ${Buffer.from(bytes).toString("hex")}\n  ours     ${Buffer.from(frames[i]).toString("hex")}`);
  }
}
writeFileSync(join(dir, "official.bin"), Buffer.concat(official));

if (warnings.length > 0) {
  failures++;
  console.error(`the decoder warned ${warnings.length} time(s)`);
}
if (failures > 0) {
  console.error(`${failures} of ${frames.length} events failed`);
  process.exit(1);
}
console.log(`${frames.length} events decoded by @ag-ui/proto equal our JSON`);
console.log(`${identical} of ${frames.length} frames are byte-identical to @ag-ui/proto's encoding of our JSON`);

function fail(message) {
  console.error(message);
  process.exit(1);
}
