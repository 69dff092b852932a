"""Titles and queries as words, the way the engine reads them, and the edits people make
(tools/relevance-sets.py)."""
import hashlib
import unicodedata

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
