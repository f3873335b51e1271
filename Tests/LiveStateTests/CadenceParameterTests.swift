@testable import LiveState
import Testing

/// `CadencePolicy.parameters`, the one table the CLI's flags and the configuration's keys come from.
@Suite struct CadenceParameterTests {
    /// A number added to the policy without a row would be settable from nowhere.
    @Test func everyNumberOfThePolicyHasARow() {
        let numbers = Mirror(reflecting: CadencePolicy()).children.compactMap { child in
            child.value is Double || child.value is Int ? child.label : nil
        }
        #expect(CadencePolicy.parameters.map(\.name) == numbers)
    }

    @Test func namesAndFlagsAreUnique() {
        #expect(Set(CadencePolicy.parameters.map(\.name)).count == CadencePolicy.parameters.count)
        #expect(Set(CadencePolicy.parameters.map(\.flag)).count == CadencePolicy.parameters.count)
        #expect(CadencePolicy.parameters.allSatisfy { $0.flag.hasPrefix("--") && !$0.help.isEmpty })
    }

    /// Setting one row changes that property and no other.
    @Test func eachRowSetsItsOwnProperty() {
        for parameter in CadencePolicy.parameters {
            var policy = CadencePolicy()
            let changed = parameter.value(in: policy) + 7
            parameter.set(changed, in: &policy)
            #expect(parameter.value(in: policy) == changed, "\(parameter.name)")
            for other in CadencePolicy.parameters where other.name != parameter.name {
                #expect(other.value(in: policy) == other.value(in: CadencePolicy()), "\(parameter.name) changed \(other.name)")
            }
            let label = Mirror(reflecting: policy).children.first { $0.label == parameter.name }?.value
            #expect(label.map { "\($0)" } == (parameter.isWhole ? "\(Int(changed))" : "\(changed)"), "\(parameter.name)")
        }
    }
}
