import MVIKit
import Testing
import CinematicTestSupport

enum SampleFailure: Error, Equatable {
    case offline
    case refused(String)
}

@Suite("LoadingPhase")
struct LoadingPhaseTests {
    typealias Phase = LoadingPhase<[Int], SampleFailure>

    @Test func equalityComparesCaseAndPayload() {
        #expect(Phase.idle == .idle)
        #expect(Phase.loading == .loading)
        #expect(Phase.loaded([1, 2]) == .loaded([1, 2]))
        #expect(Phase.failed(.refused("x")) == .failed(.refused("x")))

        #expect(Phase.idle != .loading)
        #expect(Phase.loaded([]) != .idle)
        #expect(Phase.loaded([1]) != .loaded([2]))
        #expect(Phase.failed(.offline) != .failed(.refused("offline")))
        #expect(Phase.failed(.offline) != .loading)
    }

    @Test(arguments: [
        (Phase.idle, nil, nil, false),
        (Phase.loading, nil, nil, true),
        (Phase.loaded([3]), [3], nil, false),
        (Phase.loaded([]), [], nil, false),
        (Phase.failed(.offline), nil, SampleFailure.offline, false),
    ] as [(Phase, [Int]?, SampleFailure?, Bool)])
    func accessors(phase: Phase, value: [Int]?, failure: SampleFailure?, isLoading: Bool) {
        #expect(phase.value == value)
        #expect(phase.failure == failure)
        #expect(phase.isLoading == isLoading)
    }

    @Test func aPhaseThatCannotFailHasNoFailure() {
        let phase: LoadingPhase<String, Never> = .loaded("ok")
        #expect(phase.value == "ok")
        #expect(phase.failure == nil)
        #expect(LoadingPhase<String, Never>.idle == .idle)
    }
}
