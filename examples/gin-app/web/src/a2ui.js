// A minimal renderer of A2UI v0.9 surfaces (https://a2ui.org) for the chat
// page: the operations createSurface, updateComponents, updateDataModel and
// deleteSurface, and the basic catalog's Text, Column, Row, Card and Button.
// Other component types show as a labelled placeholder. A button's action
// goes to the caller as A2UI's user action {name, surfaceId,
// sourceComponentId, timestamp, context}, its context's bindings resolved.

// surfacesFrom reads surfaces from the page's messages, in order: an
// activity message of type "a2ui-surface" and a tool message whose
// content is {"a2ui_operations": [...]} both carry operations. It returns
// the surfaces by id and, for each message that painted a surface first,
// that surface's id (by message id), so the page shows each surface once,
// where it first appeared.
export function surfacesFrom(messages) {
  const surfaces = new Map();
  const firstShown = new Map();
  for (const m of messages) {
    const ops = operationsOf(m);
    if (!ops) continue;
    for (const op of ops) {
      const id = apply(surfaces, op);
      if (id && surfaces.has(id) && ![...firstShown.values()].includes(id)) firstShown.set(m.id, id);
    }
  }
  return { surfaces, firstShown };
}

/** operationsOf returns the A2UI operations a message carries, or undefined. */
export function operationsOf(m) {
  let content = m.content;
  if (m.role === "activity") {
    if (m.activityType !== "a2ui-surface") return undefined;
  } else if (m.role === "tool") {
    if (typeof content !== "string" || !content.includes("a2ui_operations")) return undefined;
    try {
      content = JSON.parse(content);
    } catch {
      return undefined;
    }
  } else {
    return undefined;
  }
  const ops = content?.a2ui_operations;
  return Array.isArray(ops) ? ops : undefined;
}

// apply applies one operation to surfaces and returns the id of the
// surface it names.
function apply(surfaces, op) {
  if (op?.version !== "v0.9") return undefined;
  if (op.createSurface) {
    const { surfaceId, catalogId } = op.createSurface;
    if (!surfaces.has(surfaceId)) surfaces.set(surfaceId, { id: surfaceId, catalogId, components: new Map(), data: {} });
    return surfaceId;
  }
  if (op.updateComponents) {
    const s = surfaces.get(op.updateComponents.surfaceId);
    for (const c of s ? op.updateComponents.components ?? [] : []) {
      if (typeof c?.id === "string") s.components.set(c.id, c);
    }
    return s?.id;
  }
  if (op.updateDataModel) {
    const s = surfaces.get(op.updateDataModel.surfaceId);
    if (s) s.data = setAt(s.data, pointer(op.updateDataModel.path ?? "/"), op.updateDataModel.value);
    return s?.id;
  }
  if (op.deleteSurface) {
    surfaces.delete(op.deleteSurface.surfaceId);
  }
  return undefined;
}

// pointer splits a JSON Pointer ("/a/0/b") into its tokens.
function pointer(path) {
  if (path === "" || path === "/") return [];
  return path
    .replace(/^\//, "")
    .split("/")
    .map((t) => t.replaceAll("~1", "/").replaceAll("~0", "~"));
}

// setAt returns doc with value at tokens (undefined removes it); the root
// is replaced whole.
function setAt(doc, tokens, value) {
  if (tokens.length === 0) return value ?? {};
  const root = typeof doc === "object" && doc !== null ? doc : {};
  let node = root;
  for (const t of tokens.slice(0, -1)) {
    if (typeof node[t] !== "object" || node[t] === null) node[t] = {};
    node = node[t];
  }
  const last = tokens.at(-1);
  if (value === undefined) delete node[last];
  else node[last] = value;
  return root;
}

// read returns the value at path: absolute ("/a/b") from the data model's
// root, relative ("b") from scope, the item a template repeats.
function read(surface, scope, path) {
  let node = path.startsWith("/") ? surface.data : scope;
  for (const t of pointer(path.startsWith("/") ? path : `/${path}`)) {
    if (node === null || typeof node !== "object") return undefined;
    node = node[t];
  }
  return node;
}

// resolve returns a property's value: a literal, or {path} read from the
// data model.
function resolve(surface, scope, v) {
  if (v && typeof v === "object" && !Array.isArray(v) && typeof v.path === "string") return read(surface, scope, v.path);
  return v;
}

function display(v) {
  if (v === undefined || v === null) return "";
  return typeof v === "object" ? JSON.stringify(v) : String(v);
}

const maxDepth = 32;

/**
 * renderSurface returns the element that paints surface, from its
 * component "root"; onAction receives a button's user action.
 */
export function renderSurface(surface, onAction) {
  const el = document.createElement("div");
  el.className = "a2ui-surface";
  el.dataset.surfaceId = surface.id;
  el.append(renderComponent(surface, "root", surface.data, onAction, new Set()));
  return el;
}

function renderComponent(surface, id, scope, onAction, path) {
  const c = surface.components.get(id);
  if (!c || path.has(id) || path.size >= maxDepth) {
    return placeholder(c ? `cycle at ${id}` : `missing component ${id}`);
  }
  const inner = new Set(path).add(id);
  const child = (childID, childScope = scope) => renderComponent(surface, childID, childScope, onAction, inner);
  let el;
  switch (c.component) {
    case "Text": {
      const variant = typeof c.variant === "string" ? c.variant : "body";
      el = document.createElement(/^h[1-5]$/.test(variant) ? variant : variant === "caption" ? "small" : "p");
      el.textContent = display(resolve(surface, scope, c.text));
      break;
    }
    case "Column":
    case "Row":
      el = document.createElement("div");
      el.append(...children(surface, c.children, scope, child));
      if (typeof c.justify === "string") el.dataset.justify = c.justify;
      if (typeof c.align === "string") el.dataset.align = c.align;
      break;
    case "Card":
      el = document.createElement("div");
      if (typeof c.child === "string") el.append(child(c.child));
      break;
    case "Button": {
      el = document.createElement("button");
      el.type = "button";
      if (typeof c.child === "string") el.append(child(c.child));
      const event = c.action?.event;
      if (typeof event?.name === "string") {
        el.addEventListener("click", () => {
          const context = {};
          for (const [k, v] of Object.entries(event.context ?? {})) context[k] = resolve(surface, scope, v);
          onAction({ name: event.name, surfaceId: surface.id, sourceComponentId: c.id, timestamp: new Date().toISOString(), context });
        });
      } else {
        el.disabled = true;
      }
      if (typeof c.variant === "string") el.dataset.variant = c.variant;
      break;
    }
    default:
      return placeholder(`${c.component} is not painted by this page`);
  }
  el.classList.add(`a2ui-${c.component.toLowerCase()}`);
  el.dataset.componentId = c.id;
  return el;
}

// children renders a children property: a list of ids, or a template
// {componentId, path} repeated for each item of the list at path.
function children(surface, spec, scope, child) {
  if (Array.isArray(spec)) return spec.filter((id) => typeof id === "string").map((id) => child(id));
  if (typeof spec?.componentId === "string" && typeof spec.path === "string") {
    const items = read(surface, scope, spec.path);
    return Array.isArray(items) ? items.map((item) => child(spec.componentId, item)) : [];
  }
  return [];
}

function placeholder(text) {
  const el = document.createElement("div");
  el.className = "a2ui-unknown";
  el.textContent = text;
  return el;
}
