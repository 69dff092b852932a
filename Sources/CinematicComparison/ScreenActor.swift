/// The screen's thread for the MV and MVVM versions: the role the main actor plays in an app.
///
/// The library has no main actor (hosts own their main thread), so the comparison gives
/// its screens an actor of their own. What matters is what the main actor gives MV and MVVM:
/// the stale guard after an `await` and the assignment below it run without a suspension in
/// between, on the same actor where cancellation happens.
@globalActor
public actor ScreenActor {
    /// The one screen actor.
    public static let shared = ScreenActor()
}
