"""The catalog as the generator sees it: films, their owners, series (tools/relevance-sets.py)."""
import gzip
import re

from .words import CARDINAL, ROMAN, STOP, core, display, number_of, words

MIN_VOTES = 1000


class Catalog:
    def __init__(self, path):
        self.films = []
        with gzip.open(path, "rt", encoding="utf-8") as f:
            next(f)
            for line in f:
                c = line.rstrip("\n").split("\t")
                shown = display(c[1])
                self.films.append({"id": int(c[0]), "title": shown, "year": int(c[2]), "votes": int(c[6]), "genres": [g for g in c[18].split(",") if g],
                                   "words": words(shown), "bare": words(re.sub(r"'s\b", "", shown))})
        self.vocabulary = set()
        self.owner = {}
        for film in self.films:
            self.vocabulary.update(film["words"])
            self.vocabulary.update(words(film["title"].replace("-", "")))
            key = core(film["words"])
            best = self.owner.get(key)
            if best is None or film["votes"] > best["votes"]:
                self.owner[key] = film
        self.postings = {}
        self.bare_postings = {}
        self.bags = {}
        for index, film in enumerate(self.films):
            for w in set(film["words"]):
                self.postings.setdefault(w, set()).add(index)
            for w in set(film["bare"]):
                self.bare_postings.setdefault(w, set()).add(index)
            self.bags.setdefault(tuple(sorted(film["words"])), []).append(film)
        self.targets = sorted((f for f in self.films if f["votes"] >= MIN_VOTES and self.owner[core(f["words"])] is f),
                              key=lambda f: f["id"])

    def holding(self, ws, bare=False):
        """The films whose words (or, `bare`, words without a possessive 's) include every one of `ws`."""
        postings = self.bare_postings if bare else self.postings
        sets = [postings.get(w, set()) for w in set(ws)]
        if not sets:
            return list(self.films)
        return [self.films[i] for i in sorted(set.intersection(*sets))]

    def most_voted(self, predicate, among):
        """The most voted film of `among` meeting `predicate`, when it has twice the votes of
        any other (else which one is meant is a matter of taste, not of construction)."""
        found = {film["id"]: film for film in among if predicate(film)}
        ranked = sorted(found.values(), key=lambda film: -film["votes"])
        if not ranked or len(ranked) > 1 and ranked[0]["votes"] < 2 * ranked[1]["votes"]:
            return None
        return ranked[0]

    def starting_with(self, name):
        n = len(name)
        return [f for f in self.holding(name) if core(f["words"])[:n] == name]

    def holding_sequence(self, seq):
        n = len(seq)
        return lambda f: any(tuple(ws[i:i + n]) == seq for ws in (f["words"], f["bare"]) for i in range(len(ws) - n + 1))


def separators(title):
    """(main, subtitle) of "Main: Sub", "Main - Sub", "Main or: Sub", or None."""
    for sep in (": ", " - "):
        if sep in title:
            main, sub = title.split(sep, 1)
            if main.endswith(" or"):
                main = main[:-3]
            sub = sub.split(": ")[-1].split(" - ")[-1]
            return main.strip(), sub.strip()
    return None


def roots(film):
    """The series names a title gives: the words before ": " or " - ", before "and the", before
    a sequel number (2-20, ii-xx, "part N"), and the whole title (leading article dropped)."""
    ws = core(film["words"])
    names = {ws}
    parts = separators(film["title"])
    if parts:
        names.add(core(words(parts[0])))
    for i in range(1, len(ws)):
        if ws[i] == "and" and ws[i + 1:i + 2] == ("the",):
            names.add(ws[:i])
        if ws[i] in ("part", "chapter", "episode", "vol", "volume") and i + 1 < len(ws) and number_of(ws[i + 1]):
            names.add(ws[:i])
        if (ws[i].isdigit() or ws[i] in ROMAN) and number_of(ws[i]) and ws[i] not in CARDINAL:
            names.add(ws[:i])
    markers = ("part", "chapter", "episode", "vol", "volume")
    return {n for n in names if n and any(w not in STOP for w in n) and n[-1] not in markers}


def series(cat):
    """Series name → its films by year. The titles giving a name as a root (see roots; a
    remake of the same title counts once, as its most voted film) with at least a tenth of
    the most voted one's votes, which has 1,000 or more, by year (ties: most votes first);
    a name whose films are a longer name's too is that name; a series has two titles at
    least that continue its name differently (not "Ghost" and "The Ghost and the Darkness",
    nor "The Mission" and the two "Mission: Impossible")."""
    members = {}
    for f in cat.films:
        if cat.owner[core(f["words"])] is not f:
            continue
        for name in roots(f):
            members.setdefault(name, []).append(f)
    kept = {}
    for name, films in sorted(members.items()):
        top = max(g["votes"] for g in films)
        if top < MIN_VOTES:
            continue
        films = sorted((g for g in films if g["votes"] * 10 >= top), key=lambda g: (g["year"], -g["votes"]))
        if len(films) >= 2:
            kept[name] = films
    longest = {}
    for name, films in sorted(kept.items()):
        ids = tuple(g["id"] for g in films)
        if ids not in longest or len(name) > len(longest[ids]):
            longest[ids] = name
    def continuation(film, name):
        rest = core(film["words"])[len(name):]
        if rest[:2] == ("and", "the") or rest[:1] and rest[0] in ("part", "chapter", "episode", "vol", "volume"):
            return rest[2:3] if rest[:2] == ("and", "the") else rest[1:2]
        return rest[:1]
    return {name: kept[name] for name in sorted(longest.values())
            if len({continuation(g, name) for g in kept[name]} - {()}) >= 2}


def carried(film, name):
    """The number a series title carries right after its name ("Die Hard 2", "Rocky III",
    "Back to the Future Part II", "Kill Bill: Vol. 2"), if any."""
    rest = core(film["words"])[len(name):]
    parts = separators(film["title"])
    if rest[:1] and rest[0] in ("i", "v", "x") and parts and core(words(parts[0])) == name + rest[:1]:
        return {"i": 1, "v": 5, "x": 10}[rest[0]]
    if rest[:1] and rest[0] in ("part", "chapter", "episode", "vol", "volume"):
        rest = rest[1:]
        if rest[:1] and rest[0] in ("i", "v", "x"):
            return {"i": 1, "v": 5, "x": 10}[rest[0]]
    if not rest or rest[0] in ("i", "v", "x") and len(rest) > 1:
        return None
    return number_of(rest[0]) or {"v": 5, "x": 10}.get(rest[0])


def sequel_queries(cat, rng):
    out = []
    for name, members in sorted(series(cat).items()):
        numbers = [carried(m, name) for m in members]
        # Only series whose carried numbers agree with their order by year.
        if any(n is not None and n != i + 1 for i, n in enumerate(numbers)):
            continue
        spoken = " ".join(name)
        for i, m in enumerate(members):
            n = i + 1
            if n < 2 or numbers[i] is not None or n > 12:
                continue
            # Two films of one year: which came first is not known.
            if any(o is not m and o["year"] == m["year"] for o in members):
                continue
            form = rng.choice(["digit", "part", "roman", "word"])
            query = {"digit": f"{spoken} {n}", "part": f"{spoken} part {n}", "roman": f"{spoken} {ROMAN[n]}",
                     "word": f"{spoken} {CARDINAL[n]}"}[form]
            out.append(("sequel", "series:" + spoken, query, m))
    return out
