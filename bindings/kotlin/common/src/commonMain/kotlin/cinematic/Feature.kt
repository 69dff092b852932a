package cinematic

/**
 * A feature of the library as the schema declares it: its wire [name], [sampleArgs] that
 * open a store of it, how to read its state ([decodeState]) and its typed store. The
 * generated Features.kt declares one object per feature ([SearchFeature], [DetailFeature],
 * ...) and lists them in [ALL_FEATURES].
 *
 * ```
 * for (feature in ALL_FEATURES) runtime.open(feature, feature.sampleArgs).use { println(it.state) }
 * ```
 */
abstract class Feature<S, T : Store<S>> internal constructor(
    /** The feature's name on the wire, e.g. "search". */
    val name: String,
    /** Args that open a store of this feature (JSON text), or null when it takes none. */
    val sampleArgs: String?
) {
    /** Reads this feature's state from its JSON; throws when the JSON does not fit the state type. */
    abstract fun decodeState(json: String): S

    /**
     * Reads this feature's state from its parsed JSON ([Json.parse]'s maps and lists), e.g. a
     * state rebuilt from a patched delivery; throws when it does not fit the state type.
     */
    abstract fun decodeStateTree(tree: Map<String, Any?>): S

    /** [state] as JSON-ready maps and lists, as the library writes it (write it with [Json.write]). */
    abstract fun encodeState(state: S): Map<String, Any?>

    /**
     * Reads this feature's state from a rebuilt tree of any JSON value: [decodeStateTree] for
     * an object; a part that may be `null` (a child handle's shown Detail) overrides it.
     */
    internal open fun decodeTree(tree: Any?): S {
        @Suppress("UNCHECKED_CAST")
        val members = tree as? Map<String, Any?> ?: throw IllegalArgumentException("a $name state that is not an object: ${Json.write(tree).take(80)}")
        return decodeStateTree(members)
    }

    /**
     * False when this feature's states are not a schema feature's state (a child handle's
     * shown Detail: a Detail with its `listing`, or null): the wire log leaves them out.
     */
    internal open val isWireState: Boolean get() = true

    /** The typed store around an opened `cinematic_store`. */
    internal abstract fun wrap(runtime: Runtime, handle: Long): T

    /**
     * Opens a store of this feature in [runtime]: `runtime.open(this, argsJson)`.
     *
     * @throws CinematicException as [Runtime.open].
     */
    fun open(runtime: Runtime, argsJson: String? = null): T = runtime.open(this, argsJson)

    /** Every send helper of the typed store, by wire type, called with sample values. */
    abstract val sampleCalls: List<Pair<String, (T) -> Unit>>

    override fun toString(): String = "Feature($name)"
}

/** A feature this binding was not generated with: its state is what [Json.parse] reads. */
internal class UntypedFeature(name: String) : Feature<Any?, Store<Any?>>(name, null) {
    override fun decodeState(json: String): Any? = Json.parse(json)
    override fun decodeStateTree(tree: Map<String, Any?>): Any? = tree
    override fun decodeTree(tree: Any?): Any? = tree
    @Suppress("UNCHECKED_CAST")
    override fun encodeState(state: Any?): Map<String, Any?> = state as Map<String, Any?>
    override fun wrap(runtime: Runtime, handle: Long): Store<Any?> = Store(runtime, handle, this)
    override val sampleCalls: List<Pair<String, (Store<Any?>) -> Unit>> get() = emptyList()
}
