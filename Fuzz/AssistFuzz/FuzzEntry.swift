import Foundation

// One libFuzzer binary for every parser that takes outside bytes; `FUZZ_TARGET` chooses which
// (scripts/fuzz sets it). libFuzzer supplies `main`, so this target is built only with
// `-sanitize=fuzzer` (ASSIST_FUZZ=1, see Package.swift) and parsed as a library.
//
// A target must not crash, trap or leak for any input: every parser turns bad bytes into a
// typed error. Errors are expected and ignored here; the sanitizer and Swift's traps do the rest.

nonisolated(unsafe) private var selected: FuzzTarget?

@_cdecl("LLVMFuzzerInitialize")
public func fuzzerInitialize(_ argc: UnsafeMutablePointer<Int32>, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>>) -> Int32 {
    let name = ProcessInfo.processInfo.environment["FUZZ_TARGET"] ?? ""
    guard let target = FuzzTarget.all.first(where: { $0.name == name }) else {
        FileHandle.standardError.write(Data("Set FUZZ_TARGET to one of: \(FuzzTarget.all.map(\.name).joined(separator: ", ")).\n".utf8))
        exit(64)
    }
    selected = target
    return 0
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzerTestOneInput(_ bytes: UnsafePointer<UInt8>?, _ count: Int) -> Int32 {
    let data = bytes.map { Data(bytes: $0, count: count) } ?? Data()
    selected?.run(data)
    return 0
}

// SwiftPM links an executable target's entry point under the name `<Target>_main` and aliases
// `main` to it, so libFuzzer's own `main` is never used; this one hands over to libFuzzer's
// driver, which then works exactly as its `main` would (arguments, corpus folders, options).
@_silgen_name("LLVMFuzzerRunDriver")
func LLVMFuzzerRunDriver(_ argc: UnsafeMutablePointer<Int32>,
                         _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
                         _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> Int32) -> Int32

@_cdecl("AssistFuzz_main")
public func assistFuzzMain(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> Int32 {
    var count = argc
    var arguments = argv
    return LLVMFuzzerRunDriver(&count, &arguments) { bytes, size in fuzzerTestOneInput(bytes, size) }
}
