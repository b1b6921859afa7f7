import Foundation
import Testing
@testable import Prescription

/// Issue 16: `assist rx create --audiogram a.csv` trapped on values of 1e308 or inf.
@Suite("Audiogram CSV with absurd numbers")
struct AudiogramCSVTests {
    @Test("an absurd threshold or frequency in a CSV audiogram is refused in one sentence",
          arguments: ["1000,1e308,40", "1000,inf,40", "1000,-1e308,40", "1000,40,nan", "1e308,40,40", "inf,40,40",
                      "1000,40,40,1e308,", "1000,40,40,,-inf"])
    func absurdRow(row: String) throws {
        let text = "frequency,left,right,left_ucl,right_ucl\n500,30,30,,\n\(row)\n2000,50,50,,\n"
        do {
            _ = try AudiogramCSV.parse(text)
            Issue.record("\(row) was accepted")
        } catch let error as PrescriptionError {
            #expect(error.userMessage.hasSuffix(".") && !error.userMessage.contains("\n"), "\(error.userMessage)")
        }
    }

    @Test("a valid CSV audiogram still parses")
    func validRows() throws {
        let audiogram = try AudiogramCSV.parse("frequency,left,right\n500,30,35\n1000,40,45\n2000,50,55\n")
        #expect(audiogram.left.thresholdHL(atHz: 1000) == 40)
        #expect(audiogram.right.thresholdHL(atHz: 2000) == 55)
    }
}
