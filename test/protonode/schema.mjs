// Compares our agui.proto with the schema @ag-ui/proto@1.0.0 was generated
// from, field by field: name, number, type and presence, and every enum
// value. The package ships no .proto files, only the ts-proto output, which
// its source map carries; the facts are read from the generated encoders,
// the code that actually writes the bytes a client reads.
//
// Usage: node schema.mjs <path to agui.proto>
// Exits 0 when both describe the same wire format (ours with the three
// fields AG-UI 1.1 added), 1 with the differences.

import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";

const protoPath = process.argv[2];
if (!protoPath) {
  console.error("usage: node schema.mjs <agui.proto>");
  process.exit(2);
}

const require = createRequire(import.meta.url);
const dist = dirname(require.resolve("@ag-ui/proto"));
const map = JSON.parse(readFileSync(join(dist, "index.js.map"), "utf8"));
const generated = map.sources
  .map((source, i) => ({ source, text: map.sourcesContent[i] }))
  .filter(({ source }) => /generated\/(events|types|patch)\.ts$/.test(source));
if (generated.length !== 3) {
  console.error(`expected the 3 generated sources in the source map, found ${generated.length}`);
  process.exit(1);
}

// Facts are lines: "Message.field=number presence type" and "enum Name.VALUE=n".
const official = new Set();
for (const { text } of generated) {
  for (const m of text.matchAll(/export enum (\w+) \{([^}]*)\}/g)) {
    for (const v of m[2].matchAll(/(\w+) = (\d+),/g)) official.add(`enum ${m[1]}.${v[1]}=${v[2]}`);
  }
  const encoders = /export const (\w+): MessageFns<\w+>[^=]*= \{\s*encode\(message[^{]*\{([\s\S]*?)return writer;/g;
  for (const m of text.matchAll(encoders)) {
    const [, name, body] = m;
    const field =
      /(?:if \(message\.(\w+) !== (undefined|""|0)\)|for \(const v of message\.(\w+)\)) \{\s*(?:writer\.uint32\((\d+)\)\.(\w+)\(|(\w+)\.encode\((?:\w+\.wrap\()?[^,]*, writer\.uint32\((\d+)\))/g;
    for (const f of body.matchAll(field)) {
      const [, single, guard, list, tag1, scalar, type, tag2] = f;
      const presence = list ? "repeated" : guard === "undefined" ? "optional" : "plain";
      const number = Number(tag1 ?? tag2) >>> 3;
      official.add(`${name}.${single ?? list}=${number} ${presence} ${scalar ?? type}`);
    }
  }
}

// Our .proto, read with just enough grammar for the file we write.
const ours = new Set();
const enums = new Set();
const camel = (s) => s.replace(/_([a-z])/g, (_, c) => c.toUpperCase());
const scalars = { string: "string", int64: "int64", bool: "bool" };
const text = readFileSync(protoPath, "utf8").replace(/\/\/.*$/gm, "");
for (const m of text.matchAll(/enum (\w+) \{([^}]*)\}/g)) {
  enums.add(m[1]);
  for (const v of m[2].matchAll(/(\w+) = (\d+);/g)) ours.add(`enum ${m[1]}.${v[1]}=${v[2]}`);
}
// Message names as ts-proto spells them: a nested message is Outer_Inner.
const messages = new Map();
const stack = [];
const lines = text.split("\n");
for (const pass of ["names", "fields"]) {
  for (const line of lines) {
    const open = line.match(/^\s*(message|oneof|enum) (\w+) \{/);
    if (open) {
      stack.push(open[1] === "message" ? open[2] : null);
      if (pass === "names" && open[1] === "message") {
        messages.set(open[2], stack.filter(Boolean).join("_"));
      }
      continue;
    }
    if (/^\s*\}/.test(line)) {
      stack.pop();
      continue;
    }
    const f = line.match(/^\s*(optional |repeated )?([\w.]+) (\w+) = (\d+);/);
    if (pass !== "fields" || !f || stack.at(-1) === undefined) continue;
    const [, label, type, name, number] = f;
    const scalar = enums.has(type) ? "int32" : scalars[type];
    const wire = scalar ?? messages.get(type) ?? type.replace(/^google\.protobuf\./, "");
    // ts-proto writes a message-typed field whenever it is set, so it
    // guards it like a proto3 optional.
    const presence =
      label === "repeated " ? "repeated" : label === "optional " || !scalar ? "optional" : "plain";
    const owner = stack.filter(Boolean).join("_");
    ours.add(`${owner}.${camel(name)}=${number} ${presence} ${wire}`);
  }
}

// AG-UI 1.1 added these three fields, at the numbers of the spec's
// proto-freeze.txt; @ag-ui/proto@1.0.0 predates them and skips them.
const added11 = new Set([
  "ToolCall.encryptedValueType=6 optional string",
  "Message.encryptedValueType=14 optional string",
  "ReasoningEncryptedValueEvent.encryptedValueType=6 optional string",
]);
for (const x of added11) {
  if (!ours.has(x)) console.error(`missing from agui.proto (AG-UI 1.1): ${x}`);
}
const missing = [...official].filter((x) => !ours.has(x)).sort();
const extra = [...ours].filter((x) => !official.has(x) && !added11.has(x)).sort();
if (missing.length > 0 || extra.length > 0 || [...added11].some((x) => !ours.has(x))) {
  for (const x of missing) console.error(`only in @ag-ui/proto: ${x}`);
  for (const x of extra) console.error(`only in agui.proto:    ${x}`);
  process.exit(1);
}
console.log(`agui.proto matches @ag-ui/proto@1.0.0: ${official.size} fields and enum values, plus the ${added11.size} of AG-UI 1.1`);
