// swift-tools-version:6.1
// AssistiveKit: offline assistive perception. The targets follow the data flow in STYLE.md:
// Media (frames, audio) → Perception (detections, depth, geometry) → Guidance (sentences) → outputs;
// Hearing is the audio chain; every C library is wrapped once behind a C* system-library target.
import PackageDescription

let package = Package(
    name: "AssistiveKit",
    products: [
        .executable(name: "assist", targets: ["assist"]),
        .library(name: "AssistCore", targets: ["AssistCore"]),
        .library(name: "Media", targets: ["Media"]),
        .library(name: "Inference", targets: ["Inference"]),
        .library(name: "Perception", targets: ["Perception"]),
        .library(name: "Guidance", targets: ["Guidance"]),
        .library(name: "Speech", targets: ["Speech"]),
        .library(name: "Hearing", targets: ["Hearing"]),
        .library(name: "Evaluation", targets: ["Evaluation"]),
        .library(name: "Storage", targets: ["Storage"]),
        .library(name: "Prescription", targets: ["Prescription"]),
        .library(name: "LiveGuidance", targets: ["LiveGuidance"]),
        .library(name: "LiveHearing", targets: ["LiveHearing"]),
        .library(name: "Commands", targets: ["Commands"]),
        .library(name: "VoiceInput", targets: ["VoiceInput"]),
        .library(name: "SessionControl", targets: ["SessionControl"]),
        .library(name: "Reading", targets: ["Reading"]),
        .library(name: "ColourAndLight", targets: ["ColourAndLight"]),
        .library(name: "WebApp", targets: ["WebApp"]),
        .library(name: "PictureAnswers", targets: ["PictureAnswers"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.0.0"),
        .package(url: "https://github.com/apple/swift-crypto", from: "3.12.0"),
        // No traits: the web app needs neither swift-configuration nor full Foundation.
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1", traits: []),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        // The web app's connection handler adds headers to Hummingbird's own answers (HTTP parts).
        .package(url: "https://github.com/apple/swift-nio-extras", from: "1.35.2"),
        .package(url: "https://github.com/apple/swift-http-types", from: "1.8.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.14.0"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.0.0"),
    ],
    targets: [
        // C libraries, one system-library target each (headers and link flags only).
        .systemLibrary(name: "COpenVINO", path: "Sources/C/COpenVINO", pkgConfig: "assistivekit-openvino"),
        .systemLibrary(name: "CONNXRuntime", path: "Sources/C/CONNXRuntime", pkgConfig: "assistivekit-onnxruntime"),
        .systemLibrary(name: "CFFmpeg", path: "Sources/C/CFFmpeg", pkgConfig: "libavformat",
                       providers: [.apt(["libavformat-dev", "libavcodec-dev", "libswscale-dev", "libavutil-dev"])]),
        // FFTW's single-precision library (fftw3f), for the hearing chain's transforms.
        .systemLibrary(name: "CFFTW", path: "Sources/C/CFFTW", pkgConfig: "fftw3f",
                       providers: [.apt(["libfftw3-dev"])]),
        .systemLibrary(name: "CEspeakNG", path: "Sources/C/CEspeakNG", pkgConfig: "espeak-ng",
                       providers: [.apt(["libespeak-ng-dev"])]),
        .systemLibrary(name: "CSndFile", path: "Sources/C/CSndFile", pkgConfig: "sndfile",
                       providers: [.apt(["libsndfile1-dev"])]),
        // No pkgConfig: its .pc adds -pthread, which SwiftPM prohibits; the module map links it.
        .systemLibrary(name: "CPortAudio", path: "Sources/C/CPortAudio",
                       providers: [.apt(["portaudio19-dev"])]),
        // JACK directly (not through PortAudio, which cannot let go of a stream whose server stopped).
        .systemLibrary(name: "CJack", path: "Sources/C/CJack", providers: [.apt(["libjack-jackd2-dev"])]),
        // Linux evdev force feedback (linux/input.h, from the kernel headers): vibration.
        .systemLibrary(name: "CLinuxInput", path: "Sources/C/CLinuxInput"),
        .systemLibrary(name: "CZBar", path: "Sources/C/CZBar", pkgConfig: "zbar",
                       providers: [.apt(["libzbar-dev"])]),
        .systemLibrary(name: "CQREncode", path: "Sources/C/CQREncode", pkgConfig: "libqrencode",
                       providers: [.apt(["libqrencode-dev"])]),
        .systemLibrary(name: "CTesseract", path: "Sources/C/CTesseract", pkgConfig: "tesseract",
                       providers: [.apt(["libtesseract-dev", "tesseract-ocr-eng", "tesseract-ocr-osd"])]),

        // Shared by both assistants: errors, frames, settings locations, clocks.
        .target(name: "AssistCore"),
        // Input: images, depth images, video (FFmpeg) and audio files (libsndfile).
        .target(name: "Media", dependencies: ["AssistCore", "CFFmpeg", "CSndFile", "CPortAudio", "CJack"]),
        // The OpenVINO wrapper: models read, compiled and run (detection, depth, sentence embeddings).
        .target(name: "Inference", dependencies: ["AssistCore", "COpenVINO"]),
        // The second inference runtime (the speech recogniser's models come only as ONNX Runtime files).
        .target(name: "ONNXRuntime", dependencies: ["AssistCore", "CONNXRuntime"]),
        // Detection, depth and geometry: YOLO detector, direction and distance.
        .target(name: "Perception", dependencies: ["AssistCore", "Inference", .product(name: "Crypto", package: "swift-crypto")],
                resources: [.copy("Geometry/object-sizes.json")]),
        // What to say: ordering, templates, sentences.
        .target(name: "Guidance", dependencies: ["AssistCore", "Perception"],
                resources: [.copy("Templates")]),
        // Spoken output: text-to-speech (espeak-ng, and the natural voice on OpenVINO), the utterance queue, tones, stereo placement, vibration.
        .target(name: "Speech", dependencies: ["AssistCore", "Media", "Inference", "ONNXRuntime", "CEspeakNG", "CLinuxInput"]),
        // Hearing-aid processing chain.
        .target(name: "Hearing", dependencies: ["AssistCore", "CFFTW"]),
        // Accuracy measurement (mAP on labelled image sets, distance error on RGB-D frames).
        .target(name: "Evaluation", dependencies: ["AssistCore", "Perception", "Media"]),
        // Settings, detection history, usage statistics and backup: SQLite (GRDB), encrypted columns.
        .target(name: "Storage", dependencies: [
            "AssistCore",
            .product(name: "GRDB", package: "GRDB.swift"),
            .product(name: "Crypto", package: "swift-crypto"),
            .product(name: "_CryptoExtras", package: "swift-crypto"),
        ]),
        // Signed prescriptions: canonical payload, QR codes (qrencode, zbar), trust, the encrypted patient store.
        .target(name: "Prescription", dependencies: [
            "AssistCore", "Hearing", "Media", "CZBar", "CQREncode",
            .product(name: "Crypto", package: "swift-crypto"),
            .product(name: "_CryptoExtras", package: "swift-crypto"),
        ]),
        // The live loop: frame sources in, modes (policies over the tracked scene), states, watchdog, spoken output.
        .target(name: "LiveGuidance", dependencies: ["AssistCore", "Media", "Perception", "Guidance", "Speech", "ColourAndLight"],
                resources: [.copy("Templates")]),
        // The command language: intents and slots from typed or recognised text, one data file per language.
        .target(name: "Commands", dependencies: ["AssistCore", "Inference", .product(name: "Crypto", package: "swift-crypto")],
                resources: [.copy("Languages")]),
        // Speech recognition of commands (Silero VAD and Moonshine through ONNX Runtime), and media keys (evdev).
        .target(name: "VoiceInput", dependencies: ["AssistCore", "Media", "Commands", "ONNXRuntime", "CLinuxInput"]),

        // The live hearing session's rules: typed commands, what is said, a prescription expiring, on an injected clock.
        .target(name: "LiveHearing", dependencies: ["AssistCore", "Hearing", "Prescription", "Speech", "Media"]),
        // Running the vision assistant: pictures described, a live run (model lifecycle, speech route,
        // effective settings), and driving it: the command controller (the command language's one
        // caller), settings changes, the control socket, console, voice and keys, the history recorder.
        .target(name: "SessionControl", dependencies: ["AssistCore", "Commands", "Perception", "LiveGuidance", "Storage",
                                                        "Inference", "Guidance", "Media", "Speech", "VoiceInput", "PictureAnswers",
                                                        // The vision assistant and its adapters run as one group of services.
                                                        .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                                                        .product(name: "Logging", package: "swift-log")]),

        // Reading text aloud: Tesseract, the picture preparation around it, reading order, honesty filters,
        // and the short-text and page-reading policies.
        .target(name: "Reading", dependencies: ["AssistCore", "Perception", "CTesseract", "Media"], resources: [.copy("Templates")]),
        // The colour in the centre of the view (basic colour terms, light taken out) and the light detector.
        .target(name: "ColourAndLight", dependencies: ["AssistCore", "Media"], resources: [.copy("Templates")]),
        // The live session's questions about the newest frame (read the text or the page, colour, light,
        // faces), answered by Reading, ColourAndLight and Perception's face detector.
        .target(name: "PictureAnswers", dependencies: ["AssistCore", "LiveGuidance", "Guidance", "Perception", "Reading", "ColourAndLight"],
                resources: [.copy("Templates")]),

        // Speed and accuracy measurements behind `assist bench` and `assist say --benchmark`: they print numbers.
        .target(name: "Benchmarks", dependencies: ["AssistCore", "Media", "Perception", "Guidance", "Speech", "Commands", "VoiceInput",
                                                    "LiveGuidance", "PictureAnswers", "SessionControl"]),

        // The local web app (assist serve): loopback only, token-guarded pages over the same settings,
        // history, help and session commands as the command line.
        .target(name: "WebApp", dependencies: [
            "AssistCore", "Storage", "SessionControl", "Commands", "LiveGuidance",
            "Hearing", "Prescription", "LiveHearing", "Media",
            .product(name: "Hummingbird", package: "hummingbird"),
            // Its HTTP/1 channel's idle timeout and header limits, and the connection cap.
            .product(name: "HummingbirdCore", package: "hummingbird"),
            .product(name: "NIOCore", package: "swift-nio"),
            .product(name: "NIOHTTPTypes", package: "swift-nio-extras"),
            .product(name: "HTTPTypes", package: "swift-http-types"),
            .product(name: "Logging", package: "swift-log"),
            .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
        ], resources: [.copy("Assets")]),

        .executableTarget(name: "assist", dependencies: [
            "AssistCore", "Media", "Perception", "Guidance", "Speech", "Hearing", "Evaluation", "Storage", "Prescription",
            "LiveGuidance", "Commands", "VoiceInput", "LiveHearing", "SessionControl", "Reading", "ColourAndLight", "Benchmarks",
            "WebApp", "PictureAnswers",
            .product(name: "ArgumentParser", package: "swift-argument-parser"),
        ]),

        // What every test target shares: the path to ../shared, a temporary folder, one way to run
        // a program (the built `assist` included). Test targets only depend on it.
        .target(name: "TestSupport", path: "Tests/TestSupport"),
        .testTarget(name: "AssistCoreTests", dependencies: ["TestSupport", "AssistCore"]),
        .testTarget(name: "MediaTests", dependencies: ["TestSupport", "Media"]),
        .testTarget(name: "PerceptionTests", dependencies: ["TestSupport", "Perception", "Media", "AssistCore"]),
        .testTarget(name: "GuidanceTests", dependencies: ["TestSupport", "Guidance"]),
        .testTarget(name: "SpeechTests", dependencies: ["TestSupport", "Speech", "Media"]),
        .testTarget(name: "HearingTests", dependencies: ["TestSupport", "Hearing", "Media"]),
        .testTarget(name: "EvaluationTests", dependencies: ["TestSupport", "Evaluation"], exclude: ["Reference"]),
        .testTarget(name: "StorageTests", dependencies: ["TestSupport", "Storage"]),
        .testTarget(name: "PrescriptionTests", dependencies: ["TestSupport", "Prescription", "Hearing", "Media", "AssistCore"]),
        .testTarget(name: "AssistCommandTests", dependencies: ["TestSupport", "AssistCore", "assist", "SessionControl", "LiveGuidance",
                                                            "Prescription", "Reading", "Speech", "Storage", "ColourAndLight",
                                                            "Evaluation", "Benchmarks", "Perception", "WebApp"]),
        .testTarget(name: "LiveGuidanceTests", dependencies: ["TestSupport", "LiveGuidance", "Guidance", "Perception", "Speech", "Media",
                                                            "PictureAnswers", "Reading"]),
        .testTarget(name: "LiveHearingTests", dependencies: ["TestSupport", "LiveHearing", "Hearing", "Prescription", "Speech", "Media"]),
        .testTarget(name: "CommandsTests", dependencies: ["TestSupport", "Commands", "AssistCore"]),
        .testTarget(name: "SessionControlTests", dependencies: ["TestSupport", "SessionControl", "LiveGuidance", "Commands", "Storage", "Speech", "AssistCore", "Guidance", "Media", "Perception"]),
        .testTarget(name: "VoiceInputTests", dependencies: ["TestSupport", "VoiceInput", "Commands", "Media", "AssistCore"]),
        .testTarget(name: "ReadingTests", dependencies: ["TestSupport", "Reading", "Media", "AssistCore"]),
        .testTarget(name: "ColourAndLightTests", dependencies: ["TestSupport", "ColourAndLight", "Media", "AssistCore", "Speech"]),
        .testTarget(name: "WebAppTests", dependencies: ["TestSupport", "WebApp", "Storage", "AssistCore", "Commands", "SessionControl",
                                                        "Hearing", "Prescription", "LiveHearing", "Media", "LiveGuidance", "Perception",
                                                        .product(name: "Hummingbird", package: "hummingbird"),
                                                        .product(name: "Logging", package: "swift-log"),
                                                        .product(name: "NIOCore", package: "swift-nio")]),
    ]
)

// libFuzzer targets for every parser that takes outside bytes (scripts/fuzz). Only in a fuzz build
// (ASSIST_FUZZ=1 with -sanitize=fuzzer, whose runtime supplies main), so normal builds and CI's
// test command compile nothing extra for them.
if Context.environment["ASSIST_FUZZ"] == "1" {
    package.targets.append(.executableTarget(
        name: "AssistFuzz",
        dependencies: ["AssistCore", "Media", "Hearing", "Storage", "Prescription", "Commands", "SessionControl", "LiveGuidance", "WebApp",
                       .product(name: "NIOCore", package: "swift-nio"), .product(name: "NIOEmbedded", package: "swift-nio"),
                       .product(name: "NIOHTTP1", package: "swift-nio")],
        path: "Fuzz/AssistFuzz",
        swiftSettings: [.unsafeFlags(["-parse-as-library"])]))
}
