"""Classifies every difference between two wire schemas as compatible or breaking.

Walks both schemas in parallel from the wire's roots, each with its direction:

  in   what a host sends (features' args and intents, the runtime config, provider answers,
       snapshots read back): an old host must still be accepted;
  out  what a host receives (states, error envelopes, provider requests, history, recordings,
       replay reports, catalog states): an old host must still understand it.

Compatible: a new optional member of an input, a new member of an output, a new alternative
of an input union (a new intent), a new feature, status or root, a widened input type or
bound. Breaking: a removed member (a member removed with one of the same schema added beside
it is reported as renamed), a new required input member, a narrowed input type, enum or
bound, a removed input alternative (intent), a widened output type, enum or alternative set,
a removed feature or status, a status whose value changed.
"""
from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path

IN_ROOTS = ("runtimeConfig", "providerAnswer", "storeSnapshot", "runtimeSnapshot")
OUT_ROOTS = ("errorEnvelope", "providerRequest", "patchedDelivery", "history", "recordingLine",
             "replayReport", "catalogState")
DISCRIMINATORS = ("type", "phase", "op", "event", "kind", "status")
LOWER_BOUNDS = ("minimum", "minLength", "minItems")
UPPER_BOUNDS = ("maximum", "maxLength", "maxItems", "x-maxBytes")
CONSTRAINTS = ("pattern", "if", "then", "else", "allOf", "not", "propertyNames", "format")


@dataclass
class Report:
    """The classified differences, each one line: where, and what changed."""
    compatible: list[str] = field(default_factory=list)
    breaking: list[str] = field(default_factory=list)

    def add(self, breaking: bool, where: str, what: str) -> None:
        (self.breaking if breaking else self.compatible).append(f"{where}: {what}")


class Comparison:
    """One walk of an old and a new schema."""

    def __init__(self, old: dict, new: dict) -> None:
        self.old, self.new = old, new
        self.report = Report()
        self.seen: set[tuple[str, str, str]] = set()

    def resolve(self, schema: dict, node: dict) -> tuple[dict, str]:
        """The node behind `$ref` chains and its def name ('' when inline)."""
        name = ""
        while isinstance(node, dict) and "$ref" in node:
            name = node["$ref"].split("/")[-1]
            node = schema["$defs"].get(name, {})
        return node, name

    def run(self) -> Report:
        """Compares statuses, features and roots."""
        old_x, new_x = self.old["x-cinematic"], self.new["x-cinematic"]
        new_statuses = {s["name"]: s["value"] for s in new_x["statuses"]}
        for status in old_x["statuses"]:
            if status["name"] not in new_statuses:
                self.report.add(True, "statuses", f"status {status['name']} removed")
            elif new_statuses[status["name"]] != status["value"]:
                self.report.add(True, "statuses", f"status {status['name']} changed value "
                                f"{status['value']} -> {new_statuses[status['name']]}")
        for name in sorted(set(new_statuses) - {s["name"] for s in old_x["statuses"]}):
            self.report.add(False, "statuses", f"new status {name}")
        old_features = {f["name"]: f for f in old_x["features"]}
        new_features = {f["name"]: f for f in new_x["features"]}
        for name in sorted(set(old_features) - set(new_features)):
            self.report.add(True, "features", f"feature {name} removed")
        for name in sorted(set(new_features) - set(old_features)):
            self.report.add(False, "features", f"new feature {name}")
        for name in sorted(set(old_features) & set(new_features)):
            for part, direction in (("args", "in"), ("intent", "in"), ("state", "out")):
                self.compare({"$ref": f"#/$defs/{old_features[name][part]}"},
                             {"$ref": f"#/$defs/{new_features[name][part]}"}, f"{name}.{part}", direction)
        for roots, direction in ((IN_ROOTS, "in"), (OUT_ROOTS, "out")):
            for root in roots:
                if root in self.old["$defs"] and root not in self.new["$defs"]:
                    self.report.add(True, root, "removed")
                elif root in self.new["$defs"] and root not in self.old["$defs"]:
                    self.report.add(False, root, "new")
                elif root in self.old["$defs"]:
                    self.compare({"$ref": f"#/$defs/{root}"}, {"$ref": f"#/$defs/{root}"}, root, direction)
        return self.report

    def compare(self, old: dict, new: dict, where: str, direction: str) -> None:
        """Compares one node of each schema (a member's schema, an alternative, an item)."""
        old, old_name = self.resolve(self.old, old)
        new, new_name = self.resolve(self.new, new)
        if old_name and new_name:
            key = (old_name, new_name, direction)
            if key in self.seen:
                return
            self.seen.add(key)
        inbound = direction == "in"
        self.compare_types(old, new, where, inbound)
        self.compare_values(old, new, where, inbound)
        self.compare_bounds(old, new, where, inbound)
        for keyword in CONSTRAINTS:
            if keyword in new and old.get(keyword) != new.get(keyword):
                self.report.add(inbound, where, f"{keyword} constraint {'added' if keyword not in old else 'changed'}")
            elif keyword in old and keyword not in new:
                self.report.add(not inbound, where, f"{keyword} constraint removed")
        self.compare_alternatives(old, new, where, direction)
        self.compare_members(old, new, where, direction)
        if "items" in old and "items" in new:
            self.compare(old["items"], new["items"], f"{where}[]", direction)

    @staticmethod
    def types(node: dict) -> set[str]:
        """The JSON types a node admits (empty when it does not say)."""
        declared = node.get("type")
        found = set([declared] if isinstance(declared, str) else declared or [])
        values = node.get("enum", [node["const"]] if "const" in node else [])
        found |= {"null" if v is None else "boolean" if isinstance(v, bool) else "string" if isinstance(v, str)
                  else "integer" if isinstance(v, int) else "number" for v in values}
        return found | {"integer"} if "number" in found else found

    def compare_types(self, old: dict, new: dict, where: str, inbound: bool) -> None:
        old_types, new_types = self.types(old), self.types(new)
        if not old_types or not new_types:
            return
        if old_types - new_types:
            self.report.add(inbound, where, f"type narrowed: {sorted(old_types - new_types)} no longer allowed")
        if new_types - old_types:
            self.report.add(not inbound, where, f"type widened: {sorted(new_types - old_types)} now allowed")

    def compare_values(self, old: dict, new: dict, where: str, inbound: bool) -> None:
        def values(node: dict) -> list | None:
            return node["enum"] if "enum" in node else [node["const"]] if "const" in node else None
        old_values, new_values = values(old), values(new)
        if old_values is None and new_values is None:
            return
        if new_values is None:
            self.report.add(not inbound, where, f"any value now allowed (was {old_values})")
        elif old_values is None:
            self.report.add(inbound, where, f"values narrowed to {new_values}")
        else:
            if gone := [v for v in old_values if v not in new_values]:
                self.report.add(inbound, where, f"values removed: {gone}")
            if added := [v for v in new_values if v not in old_values]:
                self.report.add(not inbound, where, f"values added: {added}")

    def compare_bounds(self, old: dict, new: dict, where: str, inbound: bool) -> None:
        for keyword in LOWER_BOUNDS + UPPER_BOUNDS:
            before, after = old.get(keyword), new.get(keyword)
            if before == after:
                continue
            upper = keyword in UPPER_BOUNDS
            tighter = after is not None and (before is None or (after < before if upper else after > before))
            self.report.add(inbound == tighter, where, f"{keyword} {before} -> {after}"
                            f" ({'narrowed' if tighter else 'widened'})")

    def alternatives(self, schema: dict, node: dict) -> dict[str, dict]:
        """A union's alternatives keyed by their discriminator (`type=queryChanged`), else by
        their def name, their required members, their type or their position."""
        keyed = {}
        for index, alternative in enumerate(node.get("oneOf", node.get("anyOf", []))):
            target, name = self.resolve(schema, alternative)
            properties = target.get("properties", {})
            key = next((f"{d}={properties[d]['const']}" for d in DISCRIMINATORS
                        if "const" in properties.get(d, {})), None)
            if key is None and name:
                key = name
            elif key is None and properties:
                key = "object{" + ",".join(sorted(target.get("required", properties))) + "}"
            elif key is None:
                types = sorted(self.types(target))
                key = "type=" + "|".join(types) if types else f"#{index}"
            keyed[key] = alternative
        return keyed

    def compare_alternatives(self, old: dict, new: dict, where: str, direction: str) -> None:
        if not any(k in old or k in new for k in ("oneOf", "anyOf")):
            return
        inbound = direction == "in"
        old_alternatives, new_alternatives = self.alternatives(self.old, old), self.alternatives(self.new, new)
        for key in old_alternatives:
            if key not in new_alternatives:
                self.report.add(inbound, where, f"alternative {key} removed")
            else:
                self.compare(old_alternatives[key], new_alternatives[key], f"{where}<{key}>", direction)
        for key in new_alternatives:
            if key not in old_alternatives:
                self.report.add(not inbound, where, f"new alternative {key}" + (" (a new intent)" if ".intent" in where else ""))

    def compare_members(self, old: dict, new: dict, where: str, direction: str) -> None:
        old_members, new_members = old.get("properties", {}), new.get("properties", {})
        if not old_members and not new_members:
            return
        inbound = direction == "in"
        old_required, new_required = set(old.get("required", [])), set(new.get("required", []))
        removed = [m for m in old_members if m not in new_members]
        added = [m for m in new_members if m not in old_members]
        for member in removed:
            twin = next((m for m in added if self.same(old_members[member], new_members[m])), None)
            if twin:
                added.remove(twin)
                self.report.add(True, where, f"member {member!r} renamed {twin!r}")
            else:
                self.report.add(True, where, f"member {member!r} removed")
        for member in added:
            required = member in new_required
            self.report.add(inbound and required, where, f"new {'required' if required else 'optional'} member "
                            f"{member!r}" + ("" if inbound else " (an old host ignores it)"))
        for member in old_members:
            if member not in new_members:
                continue
            was, now = member in old_required, member in new_required
            if was != now:
                self.report.add(inbound == now, where, f"member {member!r} became {'required' if now else 'optional'}")
            self.compare(old_members[member], new_members[member], f"{where}.{member}", direction)
        if inbound and old.get("additionalProperties", True) is not False and new.get("additionalProperties") is False:
            self.report.add(True, where, "unknown members now refused")

    def same(self, old: dict, new: dict) -> bool:
        """Whether two member schemas are the same once references are followed."""
        old_node, _ = self.resolve(self.old, old)
        new_node, _ = self.resolve(self.new, new)
        return json.dumps(old_node, sort_keys=True) == json.dumps(new_node, sort_keys=True)


def compare(old: dict, new: dict) -> Report:
    """Every difference from `old` to `new`, classified."""
    return Comparison(old, new).run()


def breaking_allowed(old_version: str, new_version: str) -> bool:
    """Whether `new_version` says it breaks `old_version`: a new major version, or while the
    major version is 0, a new minor version (0.2.x -> 0.3.0)."""
    old_parts = [int(p) for p in old_version.split(".")[:2]]
    new_parts = [int(p) for p in new_version.split(".")[:2]]
    if new_parts[0] != old_parts[0]:
        return new_parts[0] > old_parts[0]
    return new_parts[0] == 0 and new_parts[1] > old_parts[1]


def version_key(version: str) -> tuple[int, ...]:
    """0.10.0 sorts after 0.9.1."""
    return tuple(int(part) for part in version.split("."))


def last_release(releases: Path, version: str) -> Path:
    """The newest recorded release/<v>/ (holding a VERSION file) with v at most `version`:
    the baseline of the checks. A tree at version v is that release or work after it (until
    the version moves to the next release being prepared), so it is checked against v itself:
    a breaking change since v then fails until the version says so."""
    older = recorded_releases(releases, version)
    if not older:
        raise SystemExit(f"no release folder in {releases} at or before {version}")
    return older[-1]


def recorded_releases(releases: Path, version: str) -> list[Path]:
    """Every recorded release/<v>/ with v at most `version`, oldest first."""
    found = [p for p in releases.iterdir() if (p / "VERSION").exists()
             and version_key((p / "VERSION").read_text().strip()) <= version_key(version)]
    return sorted(found, key=lambda p: version_key((p / "VERSION").read_text().strip()))
