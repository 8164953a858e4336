// The chat page's A2UI operations reader (src/a2ui.js) without a browser:
// which messages carry surfaces, and what the operations leave.
import assert from "node:assert/strict";
import { test } from "node:test";
import { operationsOf, surfacesFrom } from "../src/a2ui.js";

const ops = [
  { version: "v0.9", createSurface: { surfaceId: "s", catalogId: "basic" } },
  { version: "v0.9", updateComponents: { surfaceId: "s", components: [{ id: "root", component: "Text", text: { path: "/greeting" } }] } },
  { version: "v0.9", updateDataModel: { surfaceId: "s", path: "/", value: { greeting: "hi" } } },
];

test("a tool result alone paints its surface, where it appears (the Dojo's path)", () => {
  const messages = [
    { id: "u1", role: "user", content: "show me" },
    { id: "t1", role: "tool", toolCallId: "c1", content: JSON.stringify({ a2ui_operations: ops }) },
  ];
  const { surfaces, firstShown } = surfacesFrom(messages);
  assert.deepEqual([...firstShown], [["t1", "s"]]);
  assert.equal(surfaces.get("s").components.get("root").component, "Text");
  assert.deepEqual(surfaces.get("s").data, { greeting: "hi" });
});

test("an activity and a tool result with the same surface show it once, at the first", () => {
  const messages = [
    { id: "a1", role: "activity", activityType: "a2ui-surface", content: { a2ui_operations: ops } },
    { id: "t1", role: "tool", toolCallId: "c1", content: JSON.stringify({ a2ui_operations: ops }) },
  ];
  assert.deepEqual([...surfacesFrom(messages).firstShown], [["a1", "s"]]);
});

test("later operations update the data model at a path, and delete the surface", () => {
  const more = [
    ...ops,
    { version: "v0.9", updateDataModel: { surfaceId: "s", path: "/items/0", value: "x" } },
    { version: "v0.9", updateDataModel: { surfaceId: "s", path: "/greeting" } },
  ];
  const { surfaces } = surfacesFrom([{ id: "a1", role: "activity", activityType: "a2ui-surface", content: { a2ui_operations: more } }]);
  assert.deepEqual(surfaces.get("s").data, { items: { 0: "x" } });
  const gone = surfacesFrom([
    { id: "a1", role: "activity", activityType: "a2ui-surface", content: { a2ui_operations: [...ops, { version: "v0.9", deleteSurface: { surfaceId: "s" } }] } },
  ]);
  assert.equal(gone.surfaces.size, 0);
});

test("other messages, other activities, other versions and bad JSON carry no surface", () => {
  assert.equal(operationsOf({ id: "1", role: "assistant", content: '{"a2ui_operations":[]}' }), undefined);
  assert.equal(operationsOf({ id: "2", role: "activity", activityType: "plan", content: { a2ui_operations: ops } }), undefined);
  assert.equal(operationsOf({ id: "3", role: "tool", content: '{"a2ui_operations": [' }), undefined);
  const { surfaces } = surfacesFrom([{ id: "4", role: "tool", content: JSON.stringify({ a2ui_operations: [{ version: "v0.8", createSurface: { surfaceId: "old" } }] }) }]);
  assert.equal(surfaces.size, 0);
});
