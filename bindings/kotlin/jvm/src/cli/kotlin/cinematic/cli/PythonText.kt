package cinematic.cli

import cinematic.Json
import java.math.BigDecimal
import java.math.RoundingMode
import java.util.Locale

/* Values written as Python's cli.py writes them: repr(), float repr, json.dumps, str(),
 * format specs and shlex.join. */

/** Python's repr() of a string: quotes, escapes (as argparse shows values in its errors). */
internal fun pyRepr(text: String): String {
    val quote = if ('\'' in text && '"' !in text) '"' else '\''
    val out = StringBuilder().append(quote)
    var i = 0
    while (i < text.length) {
        val cp = text.codePointAt(i)
        i += Character.charCount(cp)
        when {
            cp == quote.toInt() || cp == '\\'.toInt() -> out.append('\\').appendCodePoint(cp)
            cp == '\n'.toInt() -> out.append("\\n")
            cp == '\r'.toInt() -> out.append("\\r")
            cp == '\t'.toInt() -> out.append("\\t")
            cp < 0x20 || cp in 0x7f..0xa0 || cp == 0xad -> out.append("\\x").append(String.format("%02x", cp))
            Character.getType(cp) == Character.UNASSIGNED.toInt() || Character.isISOControl(cp) ||
                cp in 0xd800..0xdfff -> out.append(if (cp > 0xffff) String.format("\\U%08x", cp) else String.format("\\u%04x", cp))
            else -> out.appendCodePoint(cp)
        }
    }
    return out.append(quote).toString()
}

/** Python's float repr (shortest round-trip digits; exponent below 1e-4 and from 1e16). */
internal fun pyFloat(value: Double): String {
    if (value == 0.0) return if (1.0 / value < 0) "-0.0" else "0.0"
    val decimal = BigDecimal(value.toString())
    val magnitude = Math.abs(value)
    if (magnitude >= 1e-4 && magnitude < 1e16) {
        val plain = decimal.stripTrailingZeros().toPlainString()
        return if ('.' in plain) plain else "$plain.0"
    }
    val digits = decimal.unscaledValue().abs().toString().trimEnd('0').ifEmpty { "0" }
    val exponent = decimal.precision() - decimal.scale() - 1
    val mantissa = if (digits.length > 1) digits[0] + "." + digits.substring(1) else digits
    val sign = if (value < 0) "-" else ""
    return "$sign${mantissa}e${if (exponent < 0) "-" else "+"}${String.format("%02d", Math.abs(exponent))}"
}

/** Python's `json.dumps(value, ensure_ascii=False)`: ", " and ": " separators. */
internal fun pyJson(value: Any?): String = StringBuilder().also { appendPyJson(it, value) }.toString()

internal fun appendPyJson(out: StringBuilder, value: Any?) {
    when (value) {
        is Map<*, *> -> {
            out.append('{')
            value.entries.forEachIndexed { index, (k, v) ->
                if (index > 0) out.append(", ")
                out.append(Json.quote(k as String)).append(": ")
                appendPyJson(out, v)
            }
            out.append('}')
        }
        is List<*> -> {
            out.append('[')
            value.forEachIndexed { index, v -> if (index > 0) out.append(", "); appendPyJson(out, v) }
            out.append(']')
        }
        is Double -> out.append(pyFloat(value))
        is String -> out.append(Json.quote(value).replace("\u007f", "\\u007f"))
        else -> out.append(Json.write(value))
    }
}

/** Python's str() of a wire value in an f-string ("None" for null). */
internal fun pyStr(value: Any?): String = when (value) {
    null -> "None"
    is Double -> pyFloat(value)
    else -> value.toString()
}

/** Python's `f"{x:.1f}"`: round half to even on the binary value. */
internal fun oneDecimal(value: Any?): String =
    BigDecimal((value as Number).toDouble()).setScale(1, RoundingMode.HALF_EVEN).toPlainString()

/** Python's `f"{n:,}"`. */
internal fun grouped(value: Any?): String = String.format(Locale.US, "%,d", (value as Number).toLong())

private val SHLEX_SAFE = Regex("[A-Za-z0-9_@%+=:,./-]+")

/** Python's `shlex.join`: each word as is when made only of safe characters, else in single
 * quotes with each `'` written `'"'"'`. */
internal fun shlexJoin(words: List<String>): String = words.joinToString(" ") { word ->
    when {
        word.length == 0 -> "''"
        SHLEX_SAFE.matches(word) -> word
        else -> "'" + word.replace("'", "'\"'\"'") + "'"
    }
}
