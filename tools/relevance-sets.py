#!/usr/bin/env python3
"""Generates the relevance sets search is measured on, from the catalog's own titles.

    tools/relevance-sets.py            # writes Tests/relevance/generated-{dev,test}.tsv and
                                       # the split column of the hand-written queries.tsv
    tools/relevance-sets.py --check    # exits 1 when the files differ from what it writes

Every query is a catalog title changed the way people change titles when they type them,
so the film it must find is known by construction, not guessed (docs/relevance.md):

  exact          the title as shown, lowercased, punctuation dropped
  nothe          the title without its leading "The"
  subtitle       "X: Y" / "X - Y" typed as "x" (the film must be the most voted one whose
                 title starts with x)
  subtitle-only  "X: Y" typed as "y" (the film must be the most voted one holding y)
  sequel         "name N", "name part N", "name ii", "name two" for the Nth film of a series
                 whose title does not carry N (the series: the titles starting with its
                 name, with at least a tenth of the most voted one's votes, by year)
  numeral        a number the title carries typed another way ("rocky 3" for Rocky III,
                 "ocean's 11" for Ocean's Eleven)
  ordinal        "2nd" for "Second" and back
  abbrev         "doctor" for "Dr." and back ("mister", "saint", "versus", "junior", ...)
  typo1          one edit (a neighbouring key, a letter dropped, doubled or two swapped) in
                 a word of 4 letters or more, giving no catalog word
  typo2          two edits (often a vowel and another letter) in a word of 5 letters or
                 more, giving no catalog word and none a single edit away
  swap           two adjacent words swapped
  extra          a word the title lacks added ("pixar", "movie", "dvd", ...): no title holds
                 every word of the query
  alternate      a name people use for the film (data/alternate-titles.tsv: "seven samurai"
                 for Shichinin no samurai), unless a more voted film holds its words

Targets are films with at least 1,000 votes (the films people look for) whose title is
theirs: the most voted film of the same title words (Psycho 1960, not 1998). Films are
split between the development and the test set by a hash of their id (a series by its
name), so no film is in both; each family takes at most CAP queries per set, drawn with
a fixed seed. Same catalog and seed: the same files, byte for byte.
"""
import argparse
import os
import random
import sys

from relevance_sets.catalog import Catalog, separators, sequel_queries
from relevance_sets.words import (ABBREVIATIONS, CARDINAL, EXTRA, ORDINAL, ROMAN, STOP, core, distance, edit,
                                  number_of, one_edit_away, stable, typed, words)

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CATALOG = os.path.join(ROOT, "data", "ggplot2movies.tsv.gz")
OUT = os.path.join(ROOT, "Tests", "relevance")
SEED = 20240533
CAP = 60


def split_of(key):
    return "test" if stable("split:" + key) % 2 == 0 else "dev"


def replace_word(title, index, new):
    """The typed title with its index-th word replaced (words as typed())."""
    ws = typed(title).split()
    ws[index] = new
    return " ".join(ws)


def family_queries(cat, rng):
    """(family, split key, query, film) for every candidate, in a fixed order."""
    out = []
    for f in cat.targets:
        t, ws, key = f["title"], f["words"], str(f["id"])
        q = typed(t)
        out.append(("exact", key, q, f))
        if ws[:1] == ["the"] and len(ws) > 1:
            out.append(("nothe", key, typed(t[4:]), f))
        parts = separators(t)
        if parts:
            main, sub = parts
            mw, sw = core(words(main)), core(words(sub))
            if mw and any(w not in STOP for w in mw) and cat.most_voted(lambda g: mw in (core(g["words"])[:len(mw)], core(g["bare"])[:len(mw)]),
                                                                        cat.holding(mw) + cat.holding(mw, bare=True)) is f:
                out.append(("subtitle", key, typed(main), f))
            subwords = [w for w in sw if w not in STOP]
            if len(subwords) >= 2 and number_of(subwords[-1]) is None and \
                    cat.most_voted(cat.holding_sequence(tuple(words(sub))), cat.holding(words(sub)) + cat.holding(words(sub), bare=True)) is f:
                out.append(("subtitle-only", key, typed(sub), f))
        typed_words = typed(t).split()
        # numeral: a number the title carries (after its first word), typed another way.
        for i, w in enumerate(typed_words[1:], 1):
            n = number_of(w)
            if n is None or (w in ("i", "v", "x")):
                continue
            if any(x.isdigit() for x in typed_words[i - 1] + "".join(typed_words[i + 1:i + 2])):
                continue
            if w.isdigit():
                form = CARDINAL[n] if rng.random() < 0.7 else ROMAN[n]
            elif w in ROMAN:
                form = str(n) if rng.random() < 0.7 else CARDINAL[n]
            else:
                form = str(n)
            new = replace_word(t, i, form)
            if typed_words[i - 1] == "part" and rng.random() < 0.5:
                new = " ".join(typed_words[:i - 1] + new.split()[i:])
            out.append(("numeral", key, new, f))
            break
        for i, w in enumerate(typed_words):
            if w in ORDINAL[1:]:
                n = ORDINAL.index(w)
                out.append(("ordinal", key, replace_word(t, i, str(n) + {1: "st", 2: "nd", 3: "rd"}.get(n, "th")), f))
                break
            if len(w) > 2 and w[:-2].isdigit() and w[-2:] in ("st", "nd", "rd", "th") and 1 <= int(w[:-2]) <= 20:
                out.append(("ordinal", key, replace_word(t, i, ORDINAL[int(w[:-2])]), f))
                break
        raw = t.replace("&", " & ").split()
        for i, token in enumerate(raw if len(raw) >= 2 else []):
            bare = token.rstrip(".,:").lower()
            if token.rstrip(",:").endswith(".") and bare in ABBREVIATIONS and bare != "no":
                out.append(("abbrev", key, typed(" ".join(raw[:i] + [ABBREVIATIONS[bare]] + raw[i + 1:])), f))
                break
            long_forms = {v: k for k, v in ABBREVIATIONS.items() if k not in ("no", "gen", "col")}
            if bare in long_forms:
                out.append(("abbrev", key, typed(" ".join(raw[:i] + [long_forms[bare] + "."] + raw[i + 1:])), f))
                break
        # typos: one edit in a word of 4+ letters, two in one of 5+.
        for family, edits, shortest in (("typo1", 1, 4), ("typo2", 2, 5)):
            spots = [i for i, w in enumerate(typed_words) if len(w) >= shortest and w.isalpha() and w not in STOP]
            if not spots:
                continue
            i = rng.choice(spots)
            word = typed_words[i].replace("'", "")
            for _ in range(8):
                wrong = word
                for e in range(edits):
                    wrong = edit(wrong, rng, vowel=(edits == 2 and e == 0))
                if wrong in cat.vocabulary or distance(wrong, word) != edits or len(wrong) < 3:
                    continue
                if edits == 2 and one_edit_away(wrong, cat.vocabulary):
                    continue
                out.append((family, key, replace_word(t, i, wrong), f))
                break
        content = [i for i, w in enumerate(typed_words) if w not in STOP and number_of(w) is None]
        pairs = [(a, b) for a, b in zip(content, content[1:]) if b == a + 1]
        if pairs:
            a, b = rng.choice(pairs)
            swapped = typed_words[:]
            swapped[a], swapped[b] = swapped[b], swapped[a]
            bag = sorted(words(" ".join(swapped)))
            if not any(g is not f and g["votes"] >= f["votes"] for g in cat.bags.get(tuple(bag), [])):
                out.append(("swap", key, " ".join(swapped), f))
        addition = rng.choice(EXTRA + [g.lower() for g in f["genres"]] + (["animated", "cartoon"] if "Animation" in f["genres"] else []))
        added = words(addition)
        if not set(added) & set(ws):
            query = q + " " + addition if rng.random() < 0.75 else addition + " " + q
            need = set(words(query)) - STOP
            if not cat.holding(need):
                out.append(("extra", key, query, f))
    out += sequel_queries(cat, rng)
    out += alternate_queries(cat)
    return out


def alternate_queries(cat):
    """The names of data/alternate-titles.tsv typed, each for its film (films of at least
    1,000 votes), unless another film as voted holds every word of the name."""
    by_id = {f["id"]: f for f in cat.films}
    out = []
    with open(os.path.join(ROOT, "data", "alternate-titles.tsv"), encoding="utf-8") as lines:
        header = next(lines).rstrip("\n").split("\t")
        for line in lines:
            fields = dict(zip(header, line.rstrip("\n").split("\t")))
            f = by_id.get(int(fields["id"]))
            if f is None or f["votes"] < 1000:
                continue
            need = set(words(typed(fields["alternate"]))) - STOP
            if need and not any(g is not f and g["votes"] >= f["votes"] for g in cat.holding(need)):
                out.append(("alternate", str(f["id"]), typed(fields["alternate"]), f))
    return out


FAMILIES = ["exact", "nothe", "subtitle", "subtitle-only", "sequel", "numeral", "ordinal", "abbrev",
            "typo1", "typo2", "swap", "extra", "alternate"]


def generate():
    cat = Catalog(CATALOG)
    rng = random.Random(SEED)
    candidates = family_queries(cat, rng)
    sets = {"dev": [], "test": []}
    for family in FAMILIES:
        for split in ("dev", "test"):
            pool = [c for c in candidates if c[0] == family and split_of(c[1]) == split]
            seen, unique = set(), []
            for c in pool:
                if c[2] not in seen:
                    seen.add(c[2])
                    unique.append(c)
            picked = random.Random(f"{SEED}:{family}:{split}").sample(unique, min(CAP, len(unique)))
            picked.sort(key=lambda c: (c[3]["id"], c[2]))
            sets[split] += [(family, q, f["title"], f["year"]) for family, _, q, f in picked]
    return sets


HEADER = ("# generated by tools/relevance-sets.py (seed {seed}): do not edit; see docs/relevance.md\n"
          "# family\tquery\texpected title\tyear\n")


def render(rows):
    return HEADER.format(seed=SEED) + "".join(f"{a}\t{b}\t{c}\t{d}\n" for a, b, c, d in rows)


SUITE = os.path.join(OUT, "queries.tsv")
SUITE_HEADER = ("# kind\tquery\texpected title\tyear\twithin top k (title \"-\", year 0, k 0: no film may match)"
                "\tsplit (dev or test, by tools/relevance-sets.py: a hash of the query)\n")


def split_suite():
    """queries.tsv (the hand-written suite) with its split column set: dev or test by a hash
    of the query, as for generated films."""
    with open(SUITE, encoding="utf-8") as f:
        lines = f.read().splitlines()
    out = [SUITE_HEADER]
    for line in lines:
        if line.startswith("#") or not line:
            continue
        fields = line.split("\t")[:5]
        out.append("\t".join(fields + [split_of("query:" + fields[1])]) + "\n")
    return "".join(out)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--check", action="store_true", help="compare with the files instead of writing them")
    args = parser.parse_args()
    sets = generate()
    status = 0
    files = [(os.path.join(OUT, f"generated-{split}.tsv"), render(rows), len(rows)) for split, rows in sets.items()]
    suite = split_suite()
    files.append((SUITE, suite, suite.count("\n") - 1))
    for path, text, count in files:
        if args.check:
            with open(path, encoding="utf-8") as f:
                if f.read() != text:
                    print(f"{path} differs from what tools/relevance-sets.py generates", file=sys.stderr)
                    status = 1
        else:
            with open(path, "w", encoding="utf-8") as f:
                f.write(text)
            print(f"{path}: {count} queries")
    return status


if __name__ == "__main__":
    sys.exit(main())
