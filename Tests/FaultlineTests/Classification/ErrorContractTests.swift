import Faultline
import Foundation
import Testing

/// Error contracts are values: each reads one server's error shape and nothing else.
@Suite struct ErrorContractTests {
    @Test func theEnvelopeReadsCodeAndMessageAndTheSuccessFlagInA200() {
        let contract = ErrorContract.envelope()
        let failure = Data(#"{"success":false,"data":null,"error":{"code":40101,"message":"만료된 토큰입니다."}}"#.utf8)
        let success = Data(#"{"success":true,"data":{"id":1},"error":null}"#.utf8)

        #expect(contract.errorBody(401, failure) == ServerError(code: 40101, message: "만료된 토큰입니다."))
        #expect(contract.failureInSuccessfulBody?(200, failure)?.code == 40101)
        #expect(contract.failureInSuccessfulBody?(200, success) == nil)
    }

    @Test func theFlatShapeReadsStringCodes() {
        let contract = ErrorContract.flatCode()

        #expect(contract.errorBody(400, Data(#"{"errorCode":"E05"}"#.utf8)) == ServerError(code: "E05", message: nil))
        #expect(contract.errorBody(400, Data(#"{"other":1}"#.utf8)) == nil)
        #expect(contract.failureInSuccessfulBody == nil)
    }

    @Test func problemDetailsUseTheCodeExtensionThenTheType() {
        let contract = ErrorContract.problemDetails
        let withCode = Data(
            #"{"type":"https://example.com/probs/out-of-credit","title":"You do not have enough credit.","detail":"Your balance is 30, but that costs 50.","code":"CREDIT_LOW"}"#
                .utf8)
        let typeOnly = Data(#"{"type":"https://example.com/probs/out-of-credit","title":"Out of credit"}"#.utf8)
        let blank = Data(#"{"type":"about:blank","title":"Not Found","status":404}"#.utf8)

        #expect(
            contract.errorBody(403, withCode)
                == ServerError(code: "CREDIT_LOW", message: "Your balance is 30, but that costs 50."))
        #expect(
            contract.errorBody(403, typeOnly)
                == ServerError(code: "https://example.com/probs/out-of-credit", message: "Out of credit"))
        #expect(contract.errorBody(404, blank) == ServerError(code: nil, message: "Not Found"))
    }

    @Test func aCustomClosureSeesTheStatusAndTheBody() {
        let contract = ErrorContract(errorBody: { status, body in
            ServerError(code: ServerCode(integerLiteral: status * 100), message: String(decoding: body, as: UTF8.self))
        })

        #expect(contract.errorBody(418, Data("teapot".utf8)) == ServerError(code: 41800, message: "teapot"))
    }

    @Test func firstMatchTriesEachContractInOrder() {
        let contract = ErrorContract.firstMatch([.flatCode(), .envelope()])

        #expect(contract.errorBody(400, Data(#"{"errorCode":"E05"}"#.utf8))?.code == "E05")
        #expect(contract.errorBody(400, Data(#"{"error":{"code":40013,"message":"m"}}"#.utf8))?.code == 40013)
        #expect(contract.failureInSuccessfulBody != nil)
    }

    @Test func bodiesThatAreNotJSONObjectsMatchNothing() {
        for body in ["", "[1,2]", "<html>", "\u{FFFD}", "null"] {
            #expect(ErrorContract.automatic.errorBody(500, Data(body.utf8)) == nil, "\(body)")
        }
        #expect(ErrorContract.automatic.errorBody(500, Data([0xFF, 0xFE, 0x80])) == nil)
    }
}
