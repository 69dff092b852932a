package cinematic

// A runtime's logger (`cinematic_runtime_set_logger`): the host's function and the one native
// callback that calls it, registered with the library while a logger is set.

/** The logger slot of [runtime]: [set] replaces the host's logger, [callback] forwards lines to it. */
internal class RuntimeLogger(private val runtime: Runtime, private val library: NativeLibrary) {
    private val lock = Lock()
    /** The host's logger, read for every line by [callback]. Guarded by [lock]. */
    private var logger: ((String) -> Unit)? = null

    /**
     * The one native log callback of the runtime, registered while a logger is set: it lives
     * as long as the runtime, and [set] needs no lock of ours around the library call (which
     * may wait for a log line running on another thread, one that may itself call setLogger
     * or close).
     */
    val callback: NativeCallback = library.logCallback { line ->
        val current = lock.locked { logger }
        if (current != null) Delivery.run(runtime) { current(line) }
    }

    /** Makes [logger] the runtime's logger (null: none), registering [callback] with the runtime [handle] or not. */
    fun set(handle: Long, logger: ((line: String) -> Unit)?) {
        lock.locked { this.logger = logger } // lines starting from now go to the new logger (or nowhere)
        while (true) {
            // The library call also waits for a line of the previous logger still running on
            // another thread. Calls racing with this one may leave the library on (or off)
            // against the last logger set: whoever sees that sets it again.
            val enable = lock.locked { this.logger != null }
            checkStatus(library.runtimeSetLogger(handle, if (enable) callback else null))
            if (lock.locked { this.logger != null } == enable) return
        }
    }

    /** Forgets the logger (the runtime is closing): no line reaches it any more. */
    fun clear() = lock.locked { logger = null }
}
