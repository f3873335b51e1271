import Testing
@testable import CLI

@Suite struct ParseCommandTests {
    @Test func printsOneObjectPerLineAndGoesOnAfterAnError() {
        let result = runHRBridge(["parse"], input: "16 48 00 03\n0x0e:0x4d:0x0c:0x00\n\n1648000\n0400\nzz\n")
        #expect(result.status == .success)
        #expect(result.output == """
        {"bpm":72,"contact":"detected","energyExpended":null,"rr":[768]}
        {"bpm":77,"contact":"detected","energyExpended":12,"rr":[]}
        {"error":"empty value: no flags byte"}
        {"error":"odd number of hex digits (7): every byte needs two"}
        {"bpm":0,"contact":"not-detected","energyExpended":null,"rr":[]}
        {"error":"'z' at column 1 is not a hex digit"}

        """)
    }

    @Test func lastLineWithoutNewlineCounts() {
        #expect(runHRBridge(["parse"], input: "0048").output == "{\"bpm\":72,\"contact\":\"unsupported\",\"energyExpended\":null,\"rr\":[]}\n")
    }

    @Test func emptyInputPrintsNothing() {
        #expect(runHRBridge(["parse"], input: "").output == "")
    }
}
