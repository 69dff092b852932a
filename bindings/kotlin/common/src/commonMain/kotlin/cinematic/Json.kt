package cinematic

/**
 * A tiny JSON reader and writer, enough for libcinematic's states, requests and configs
 * (no outside library). Objects read as `Map<String, Any?>` (member order kept), arrays as
 * `List<Any?>`, integers as `Long`, other numbers as `Double`.
 *
 * ```
 * val state = Json.parse(store.state) as Map<*, *>
 * Json.write(mapOf("clock" to "manual", "search" to mapOf("debounceMs" to 100)))
 * // {"clock":"manual","search":{"debounceMs":100}}
 * ```
 */
object Json {
    /** Parses one JSON document; throws [IllegalArgumentException] when it is malformed. */
    fun parse(text: String): Any? {
        val reader = Reader(text)
        reader.skipSpace()
        val value = reader.value(0)
        reader.skipSpace()
        if (!reader.atEnd) reader.fail("unexpected text after the document")
        return value
    }

    /**
     * Writes [value] as compact JSON: maps (string keys), iterables and arrays, strings,
     * numbers, booleans and null.
     */
    fun write(value: Any?): String = StringBuilder().also { appendValue(it, value) }.toString()

    /** [text] as a JSON string literal, quotes included. */
    fun quote(text: String): String = StringBuilder().also { appendString(it, text) }.toString()

    private fun appendValue(out: StringBuilder, value: Any?) {
        when (value) {
            null -> out.append("null")
            is String -> appendString(out, value)
            is Boolean -> out.append(value)
            is Double -> { require(value.isFinite()) { "JSON has no $value" }; out.append(value) }
            is Float -> { require(value.isFinite()) { "JSON has no $value" }; out.append(value) }
            is Number -> out.append(value)
            is Map<*, *> -> {
                out.append('{')
                var first = true
                for ((k, v) in value) {
                    require(k is String) { "JSON object keys must be strings, not $k" }
                    if (!first) out.append(',')
                    first = false
                    appendString(out, k)
                    out.append(':')
                    appendValue(out, v)
                }
                out.append('}')
            }
            is Iterable<*> -> {
                out.append('[')
                value.forEachIndexed { i, v -> if (i > 0) out.append(','); appendValue(out, v) }
                out.append(']')
            }
            is Array<*> -> appendValue(out, value.asList())
            else -> throw IllegalArgumentException("cannot write ${value::class.simpleName} as JSON")
        }
    }

    private fun appendString(out: StringBuilder, text: String) {
        out.append('"')
        for (c in text) {
            when (c) {
                '"' -> out.append("\\\"")
                '\\' -> out.append("\\\\")
                '\n' -> out.append("\\n")
                '\r' -> out.append("\\r")
                '\t' -> out.append("\\t")
                '\b' -> out.append("\\b")
                '\u000C' -> out.append("\\f")
                else -> if (c < ' ') out.append("\\u").append((c - '\u0000').toString(16).padStart(4, '0')) else out.append(c)
            }
        }
        out.append('"')
    }

    private class Reader(val text: String) {
        var pos = 0
        val atEnd: Boolean get() = pos >= text.length

        fun fail(why: String): Nothing = throw IllegalArgumentException("malformed JSON at offset $pos: $why")

        fun skipSpace() {
            while (pos < text.length && (text[pos] == ' ' || text[pos] == '\n' || text[pos] == '\r' || text[pos] == '\t')) pos++
        }

        fun value(depth: Int): Any? {
            if (depth > 4096) fail("nested too deeply")
            if (atEnd) fail("unexpected end")
            return when (text[pos]) {
                '{' -> obj(depth)
                '[' -> array(depth)
                '"' -> string()
                't' -> literal("true", true)
                'f' -> literal("false", false)
                'n' -> literal("null", null)
                else -> number()
            }
        }

        private fun literal(word: String, value: Any?): Any? {
            if (!text.startsWith(word, pos)) fail("unexpected character '${text[pos]}'")
            pos += word.length
            return value
        }

        private fun obj(depth: Int): Map<String, Any?> {
            val result = LinkedHashMap<String, Any?>()
            pos++ // {
            skipSpace()
            if (!atEnd && text[pos] == '}') { pos++; return result }
            while (true) {
                skipSpace()
                if (atEnd || text[pos] != '"') fail("expected a member name")
                val key = string()
                skipSpace()
                if (atEnd || text[pos] != ':') fail("expected ':'")
                pos++
                skipSpace()
                result[key] = value(depth + 1)
                skipSpace()
                if (atEnd) fail("unexpected end in an object")
                when (text[pos++]) {
                    ',' -> { } // next element
                    '}' -> return result
                    else -> { pos--; fail("expected ',' or '}'") }
                }
            }
        }

        private fun array(depth: Int): List<Any?> {
            val result = ArrayList<Any?>()
            pos++ // [
            skipSpace()
            if (!atEnd && text[pos] == ']') { pos++; return result }
            while (true) {
                skipSpace()
                result.add(value(depth + 1))
                skipSpace()
                if (atEnd) fail("unexpected end in an array")
                when (text[pos++]) {
                    ',' -> { } // next element
                    ']' -> return result
                    else -> { pos--; fail("expected ',' or ']'") }
                }
            }
        }

        private fun string(): String {
            val out = StringBuilder()
            pos++ // opening quote
            while (true) {
                if (atEnd) fail("unterminated string")
                val c = text[pos++]
                when {
                    c == '"' -> return out.toString()
                    c == '\\' -> {
                        if (atEnd) fail("unterminated escape")
                        when (val e = text[pos++]) {
                            '"' -> out.append('"')
                            '\\' -> out.append('\\')
                            '/' -> out.append('/')
                            'b' -> out.append('\b')
                            'f' -> out.append('\u000C')
                            'n' -> out.append('\n')
                            'r' -> out.append('\r')
                            't' -> out.append('\t')
                            'u' -> {
                                if (pos + 4 > text.length) fail("short \\u escape")
                                val code = text.substring(pos, pos + 4).toIntOrNull(16) ?: fail("bad \\u escape")
                                out.append(code.toChar())
                                pos += 4
                            }
                            else -> fail("bad escape '\\$e'")
                        }
                    }
                    c < ' ' -> fail("control character in a string")
                    else -> out.append(c)
                }
            }
        }

        private fun number(): Any {
            val start = pos
            if (text[pos] == '-') pos++
            while (pos < text.length && text[pos] in "0123456789+-.eE") pos++
            val token = text.substring(start, pos)
            if (token.length == 0 || token == "-") fail("unexpected character '${text[start]}'")
            val isInteger = token.none { it == '.' || it == 'e' || it == 'E' }
            if (isInteger) token.toLongOrNull()?.let { return it }
            return token.toDoubleOrNull()?.takeIf { it.isFinite() } ?: fail("bad number '$token'")
        }
    }
}

/** [value] with the null members of its maps left out, at any depth. */
internal fun withoutNulls(value: Any?): Any? = when (value) {
    is Map<*, *> -> value.entries.filter { it.value != null }.associate { (key, member) -> key to withoutNulls(member) }
    is List<*> -> value.map { withoutNulls(it) }
    else -> value
}
