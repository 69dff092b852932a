package cinematic

/**
 * A patch that does not apply: a path that does not exist, an index out of range, an
 * unknown operation, or a gap in a patched delivery's `seq`. The library never sends one; a
 * store that meets one observes again (the library then starts over with the whole state)
 * and reports it to [Runtime.callbackErrorHandler].
 */
class PatchException(message: String) : IllegalArgumentException(message)

/**
 * A strict RFC 6902 JSON Patch applier (`add`, `remove`, `replace`; RFC 6901 pointers with
 * `~1` and `~0` unescaped) over the trees [Json.parse] reads: maps and lists. It is what
 * stores use to rebuild each state of a patched delivery (`cinematic_store_observe_patches`,
 * docs/wire.md "Patched delivery") from the previous one.
 *
 * [apply] never changes its input: it copies only the containers on the patched paths (each
 * at most once per patch) and shares everything else with the input. So a state handed to a
 * subscriber is never mutated afterwards, and a page of 20 films appended to a list of 2,000
 * costs a copy of that one list of references, not a parse of the whole state.
 *
 * ```
 * val state = Json.parse("""{"query":"","results":{"phase":"loaded","value":[]}}""")
 * val next = JsonPatch.apply(state, Json.parse("""[{"op":"add","path":"/results/value/-","value":{"id":11}}]""") as List<*>)
 * ```
 */
object JsonPatch {
    /**
     * The document [patch] (a list of operations as [Json.parse] reads them) turns [state]
     * into; [state] itself is left untouched.
     *
     * @throws PatchException for an operation that does not apply (nothing is changed then
     *   either: the input is never written to).
     */
    fun apply(state: Any?, patch: List<*>): Any? {
        val copies = ArrayList<Any>() // the containers this patch made (its own to change)
        fun owned(container: Any): Boolean = copies.any { it === container }
        fun own(container: Any?): Any = when (container) {
            is Map<*, *> -> LinkedHashMap(container).also { copies.add(it) }
            is List<*> -> ArrayList(container).also { copies.add(it) }
            else -> throw IllegalStateException("not a container")
        }

        var root = state
        for (operation in patch) {
            val map = operation as? Map<*, *> ?: throw PatchException("an operation is not an object: ${describe(operation)}")
            val op = map["op"]
            val path = map["path"] as? String
            if ((op != "add" && op != "remove" && op != "replace") || path == null) {
                throw PatchException("unsupported operation ${describe(operation)}")
            }
            val hasValue = map.containsKey("value")
            if (op != "remove" && !hasValue) throw PatchException("$op at \"$path\" has no value")
            val value = map["value"]
            val tokens = tokens(path)
            if (tokens.isEmpty()) {
                if (op == "remove") throw PatchException("cannot remove the whole document")
                root = value
                continue
            }
            if (root !is Map<*, *> && root !is List<*>) throw PatchException("the path \"$path\" goes through a value")
            if (!owned(root)) root = own(root)
            var parent: Any = root
            for (token in tokens.subList(0, tokens.size - 1)) {
                @Suppress("UNCHECKED_CAST")
                val child: Any? = when (parent) {
                    is MutableMap<*, *> -> {
                        if (!parent.containsKey(token)) throw PatchException("no member \"$token\" on the path \"$path\"")
                        val child = parent[token]
                        if (child !is Map<*, *> && child !is List<*>) throw PatchException("the path \"$path\" goes through a value")
                        if (owned(child)) child else own(child).also { (parent as MutableMap<String, Any?>)[token] = it }
                    }
                    is MutableList<*> -> {
                        val index = index(token, parent.size, endAllowed = false, path = path)
                        val child = parent[index]
                        if (child !is Map<*, *> && child !is List<*>) throw PatchException("the path \"$path\" goes through a value")
                        if (owned(child)) child else own(child).also { (parent as MutableList<Any?>)[index] = it }
                    }
                    else -> throw PatchException("the path \"$path\" goes through a value")
                }
                parent = child!!
            }
            val last = tokens[tokens.size - 1]
            @Suppress("UNCHECKED_CAST")
            when (parent) {
                is MutableMap<*, *> -> {
                    val members = parent as MutableMap<String, Any?>
                    if (op != "add" && !members.containsKey(last)) throw PatchException("no member at \"$path\"")
                    if (op == "remove") members.remove(last) else members[last] = value
                }
                is MutableList<*> -> {
                    val items = parent as MutableList<Any?>
                    when (op) {
                        "add" -> items.add(index(last, items.size, endAllowed = true, path = path), value)
                        "remove" -> items.removeAt(index(last, items.size, endAllowed = false, path = path))
                        else -> items[index(last, items.size, endAllowed = false, path = path)] = value
                    }
                }
                else -> throw PatchException("the path \"$path\" goes through a value")
            }
        }
        return root
    }

    /** The reference tokens of an RFC 6901 pointer, unescaped (`~1` is `/`, `~0` is `~`). */
    internal fun tokens(pointer: String): List<String> {
        if (pointer.length == 0) return emptyList()
        if (pointer[0] != '/') throw PatchException("not a JSON Pointer: \"$pointer\"")
        return pointer.substring(1).split('/').map { token ->
            // "~01" is "~1" unescaped once: ~1 first, then ~0 (RFC 6901 section 4).
            var i = token.indexOf('~')
            while (i >= 0) {
                if (i + 1 >= token.length || (token[i + 1] != '0' && token[i + 1] != '1')) {
                    throw PatchException("a bad escape in the JSON Pointer \"$pointer\"")
                }
                i = token.indexOf('~', i + 2)
            }
            token.replace("~1", "/").replace("~0", "~")
        }
    }

    private fun index(token: String, size: Int, endAllowed: Boolean, path: String): Int {
        if (token == "-" && endAllowed) return size
        if (token.length == 0 || token.any { it !in '0'..'9' } || (token.length > 1 && token[0] == '0') || token.length > 9) {
            throw PatchException("\"$token\" is not an array index (\"$path\")")
        }
        val index = token.toInt()
        if (index > size || (index == size && !endAllowed)) throw PatchException("index $index out of range (size $size) at \"$path\"")
        return index
    }

    private fun describe(value: Any?): String = Json.write(value).let { if (it.length > 200) it.take(200) + "..." else it }
}

/**
 * The state of one patch-mode registration, rebuilt delivery by delivery: [receive] takes
 * each envelope as the library sends it (`{"seq":1,"state":{...}}`, then
 * `{"seq":n,"patch":[...]}`) and returns the state it describes (a new tree whenever
 * something changed), or throws [PatchException] on a gap in `seq` or a patch that does not
 * apply. A state is any JSON value: a store's is an object, a child handle's part may be
 * `null` (no Detail shown) and is then replaced whole (path ""). After a failure it takes
 * nothing but a new `{"seq":1,...}` (register again).
 */
internal class PatchedState {
    /** The last state rebuilt (null before the first delivery and after a failure). */
    var state: Any? = null
        private set
    /** The `seq` of the last delivery applied (0: none). */
    var seq: Long = 0
        private set

    /** The state after delivery [envelopeJson]. */
    fun receive(envelopeJson: String): Any? = receive(Json.parse(envelopeJson))

    /** The state after the parsed delivery [envelope]. */
    fun receive(envelope: Any?): Any? {
        try {
            val members = envelope as? Map<*, *> ?: throw PatchException("a delivery that is not an object")
            val seq = (members["seq"] as? Long) ?: throw PatchException("a delivery without a seq")
            if (members.containsKey("state")) {
                if (seq != 1L) throw PatchException("a whole state with seq $seq")
                return accept(1, members["state"])
            }
            if (this.seq == 0L || seq != this.seq + 1) {
                throw PatchException("delivery $seq after ${this.seq}: a delivery is missing")
            }
            val patch = members["patch"] as? List<*> ?: throw PatchException("delivery $seq has neither a state nor a patch")
            return accept(seq, JsonPatch.apply(state, patch))
        } catch (failure: PatchException) {
            state = null
            seq = 0
            throw failure
        }
    }

    private fun accept(seq: Long, tree: Any?): Any? {
        state = tree
        this.seq = seq
        return tree
    }
}
