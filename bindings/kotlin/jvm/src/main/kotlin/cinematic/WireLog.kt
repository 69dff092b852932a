package cinematic

import java.io.File

/**
 * Records every state, error envelope and provider request the binding receives, as JSON
 * lines, when the system property `cinematic.wireLog` names a file (off otherwise, and then
 * free). `tools/wirecheck.py FILE` validates them against the schema; the binding's own test
 * run does exactly that.
 *
 * ```
 * java -Dcinematic.wireLog=/tmp/wire.jsonl ...
 * ```
 */
internal object WireLog {
    private val file: File? = System.getProperty("cinematic.wireLog")?.takeIf { it.isNotEmpty() }?.let(::File)

    /** True when a file is named (what is recorded is kept). */
    val enabled: Boolean get() = file != null

    /** Appends `{"kind":kind,"feature":feature,"value":json}` (json is already JSON). */
    fun record(kind: String, feature: String?, json: String?) {
        val file = file ?: return
        if (json == null) return
        val featureJson = feature?.let { Json.quote(it) } ?: "null"
        synchronized(this) { file.appendText("{\"kind\":\"$kind\",\"feature\":$featureJson,\"value\":$json}\n") }
    }
}
