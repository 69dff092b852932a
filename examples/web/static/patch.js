// The page's RFC 6902 applier: add, remove and replace with RFC 6901 pointers (what the
// library sends). Strict, like every host's (schema/golden/patches.json is the corpus they all
// pass): a path that does not exist, an index out of range or an operation the library never
// sends throws, and the page then reconnects for a whole state (app.js).

/** An array index token ("0", "12"; "-" only where allowed: the end, for add). */
function patchIndex(token, size, endAllowed) {
  if (token === "-" && endAllowed) return size;
  if (!/^(0|[1-9][0-9]*)$/.test(token)) throw new Error("not an array index: " + token);
  const i = Number(token);
  if (i > size || (i === size && !endAllowed)) throw new Error("index " + i + " out of range (size " + size + ")");
  return i;
}

/** Whether value is a JSON object (not an array, not null). */
function isObject(value) { return typeof value === "object" && value !== null && !Array.isArray(value); }

/** Applies patch to doc (changed in place; the root may be replaced) and returns the result. */
function applyPatch(doc, patch) {
  for (const op of patch) {
    if (!isObject(op) || !["add", "remove", "replace"].includes(op.op) || typeof op.path !== "string")
      throw new Error("unsupported operation " + JSON.stringify(op));
    if (op.op !== "remove" && !("value" in op)) throw new Error(op.op + " at " + op.path + " has no value");
    if (op.path === "") {
      if (op.op === "remove") throw new Error("cannot remove the whole document");
      doc = op.value;
      continue;
    }
    if (op.path[0] !== "/") throw new Error("not a JSON Pointer: " + op.path);
    const keys = op.path.split("/").slice(1).map((k) => k.replace(/~1/g, "/").replace(/~0/g, "~"));
    let parent = doc;
    for (const k of keys.slice(0, -1)) {
      if (Array.isArray(parent)) parent = parent[patchIndex(k, parent.length, false)];
      else if (isObject(parent) && Object.prototype.hasOwnProperty.call(parent, k)) parent = parent[k];
      else throw new Error("no member " + k + " on the path " + op.path);
    }
    const last = keys[keys.length - 1];
    if (Array.isArray(parent)) {
      const i = patchIndex(last, parent.length, op.op === "add");
      if (op.op === "add") parent.splice(i, 0, op.value);
      else if (op.op === "remove") parent.splice(i, 1);
      else parent[i] = op.value;
    } else if (isObject(parent)) {
      if (op.op !== "add" && !Object.prototype.hasOwnProperty.call(parent, last)) throw new Error("no member at " + op.path);
      if (op.op === "remove") delete parent[last];
      else parent[last] = op.value;
    } else throw new Error("the path " + op.path + " goes through a value");
  }
  return doc;
}
