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

Targets are films with at least 1,000 votes (the films people look for) whose title is
theirs: the most voted film of the same title words (Psycho 1960, not 1998). Films are
split between the development and the test set by a hash of their id (a series by its
name), so no film is in both; each family takes at most CAP queries per set, drawn with
a fixed seed. Same catalog and seed: the same files, byte for byte.
"""
import argparse
import gzip
import hashlib
import os
import random
import re
import sys
import unicodedata

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CATALOG = os.path.join(ROOT, "data", "ggplot2movies.tsv.gz")
OUT = os.path.join(ROOT, "Tests", "relevance")
SEED = 20240533
CAP = 60
MIN_VOTES = 1000

ARTICLES = {"The", "A", "An", "La", "Le", "Les", "L'", "Il", "El", "Der", "Die", "Das", "O", "I", "De",
            "Los", "Las", "Un", "Una", "Une", "Uno", "Un'", "Den", "Det", "To", "Ta", "Ha-", "Gli", "Lo",
            "Het", "Os", "En", "Ein", "Eine", "Een", "Oi", "al-", "As"}
STOP = {"the", "a", "an", "of", "and", "in", "on", "at", "to", "for", "la", "le", "les", "el",
        "il", "de", "der", "die", "das", "l", "du", "des"}
FOLD = {"æ": "ae", "œ": "oe", "ß": "ss", "þ": "th", "ø": "o", "đ": "d", "ð": "d", "ł": "l", "ı": "i", "ħ": "h"}
ROMAN = ["", "i", "ii", "iii", "iv", "v", "vi", "vii", "viii", "ix", "x", "xi", "xii", "xiii", "xiv", "xv",
         "xvi", "xvii", "xviii", "xix", "xx"]
CARDINAL = ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven",
            "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen", "nineteen", "twenty"]
ORDINAL = ["", "first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth", "tenth",
           "eleventh", "twelfth", "thirteenth", "fourteenth", "fifteenth", "sixteenth", "seventeenth",
           "eighteenth", "nineteenth", "twentieth"]
ABBREVIATIONS = {"dr": "doctor", "mr": "mister", "mrs": "missus", "st": "saint", "vs": "versus", "jr": "junior",
                 "lt": "lieutenant", "sgt": "sergeant", "capt": "captain", "prof": "professor", "mt": "mount",
                 "ft": "fort", "gen": "general", "col": "colonel", "no": "number"}
EXTRA = ["movie", "film", "the movie", "dvd", "full movie", "trailer", "hd", "soundtrack", "remake", "original",
         "uncut", "director's cut", "imdb", "classic"]
KEYBOARD = ["qwertyuiop", "asdfghjkl", "zxcvbnm"]
VOWELS = "aeiou"


def fold(text):
    out = []
    for ch in text.lower():
        if ch in FOLD:
            out.append(FOLD[ch])
            continue
        out.append("".join(c for c in unicodedata.normalize("NFKD", ch) if not unicodedata.combining(c)))
    return "".join(out)


def words(text):
    """The engine's words (SearchText.words): apostrophes join, other marks separate."""
    result, current = [], ""
    for ch in text:
        if ch in "'\u2019\u2018`":
            if len(current) == 1:
                result.append(current)
                current = ""
            continue
        if ch.isalnum():
            current += fold(ch)
        elif current:
            result.append(current)
            current = ""
    if current:
        result.append(current)
    return result


def display(title):
    """TitleText: "Godfather, The" → "The Godfather"."""
    comma = title.rfind(",")
    if comma > 0 and title[comma + 1:comma + 2] == " " and title[comma + 2:] in ARTICLES:
        article = title[comma + 2:]
        return article + ("" if article.endswith(("'", "-")) else " ") + title[:comma]
    return title


def typed(text):
    """How a person types a title: lowercase, "&" as "and", punctuation but apostrophes dropped."""
    text = text.replace("&", " and ").lower()
    kept = "".join(ch if ch.isalnum() or ch in "'\u2019 " else " " for ch in text)
    return " ".join(kept.split())


def core(ws):
    """Words without a leading article."""
    return tuple(ws[1:]) if len(ws) > 1 and ws[0] in ("the", "a", "an") else tuple(ws)


def stable(text):
    return int(hashlib.sha256(text.encode()).hexdigest()[:8], 16)


def number_of(word):
    if word.isdigit() and 1 <= int(word) <= 20:
        return int(word)
    if word in ROMAN[2:]:
        return ROMAN.index(word)
    if word in CARDINAL[2:]:
        return CARDINAL.index(word)
    return None


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


def split_of(key):
    return "test" if stable("split:" + key) % 2 == 0 else "dev"


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


def neighbours(ch):
    for row in KEYBOARD:
        i = row.find(ch)
        if i >= 0:
            return row[max(0, i - 1):i] + row[i + 1:i + 2]
    return ""


def edit(word, rng, vowel=False):
    """One realistic edit, never of the first letter."""
    letters = list(word)
    if vowel:
        spots = [i for i in range(1, len(letters)) if letters[i] in VOWELS]
        if spots:
            i = rng.choice(spots)
            letters[i] = rng.choice([v for v in VOWELS if v != letters[i]])
            return "".join(letters)
    kind = rng.choice(["neighbour", "drop", "double", "swap"])
    i = rng.randrange(1, len(letters))
    if kind == "neighbour" and neighbours(letters[i]):
        letters[i] = rng.choice(neighbours(letters[i]))
    elif kind == "drop":
        del letters[i]
    elif kind == "double":
        letters.insert(i, letters[i])
    elif i + 1 < len(letters) and letters[i] != letters[i + 1]:
        letters[i], letters[i + 1] = letters[i + 1], letters[i]
    else:
        del letters[i]
    return "".join(letters)


def distance(a, b):
    """Optimal string alignment distance."""
    d = [[0] * (len(b) + 1) for _ in range(len(a) + 1)]
    for i in range(len(a) + 1):
        d[i][0] = i
    for j in range(len(b) + 1):
        d[0][j] = j
    for i in range(1, len(a) + 1):
        for j in range(1, len(b) + 1):
            d[i][j] = min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + (a[i - 1] != b[j - 1]))
            if i > 1 and j > 1 and a[i - 1] == b[j - 2] and a[i - 2] == b[j - 1]:
                d[i][j] = min(d[i][j], d[i - 2][j - 2] + 1)
    return d[len(a)][len(b)]


def one_edit_away(word, vocabulary):
    alphabet = "abcdefghijklmnopqrstuvwxyz0123456789"
    for i in range(len(word) + 1):
        for c in alphabet:
            if word[:i] + c + word[i:] in vocabulary:
                return True
        if i < len(word):
            if word[:i] + word[i + 1:] in vocabulary:
                return True
            for c in alphabet:
                if word[:i] + c + word[i + 1:] in vocabulary:
                    return True
            if i + 1 < len(word) and word[:i] + word[i + 1] + word[i] + word[i + 2:] in vocabulary:
                return True
    return False


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
    return out


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


FAMILIES = ["exact", "nothe", "subtitle", "subtitle-only", "sequel", "numeral", "ordinal", "abbrev",
            "typo1", "typo2", "swap", "extra"]


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
