import ArgumentParser
import AssistCore
import Foundation
import Guidance
import Media
import Perception
import Speech
import Storage
import SessionControl

struct See: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "see",
        abstract: "Describes what pictures show, or guides live from a camera, a video, a stream or a folder of pictures.",
        discussion: """
        PICTURES. Sentences go to standard output, closest object first, at most --max-objects of them; \
        objects below --confidence are never mentioned, and "No object detected." is said when nothing \
        qualifies. A picture too dark or too blurred to judge gets a sentence saying so.

        Distance comes, in order of trust, from a depth image (--depth, or a file NAME_depth_mm.pgm/.png \
        beside NAME_color.* or NAME.*), from a learned depth model (--depth-model), or from camera geometry \
        (object size and where it meets the floor). Where none works the sentence says "distance unknown".

        Errors for one picture are reported in one sentence on standard error and the other pictures are \
        still described; the exit status is 1 when any picture failed.

        The description is also spoken, on the default audio output (or --audio-device), unless --quiet; \
        --speak-to renders it into a WAV file instead. With --json it is spoken only when --speak-to or \
        --audio-device asks for it. Where no audio device exists the sentences are still printed, and \
        standard error says once that they could not be spoken.

        LIVE. With one live input — a video file (.mp4 .mkv .avi .mov .webm .mjpeg …), a camera \
        (/dev/videoN, camera, camera:N), a stream (rtsp://, http://, …) or a folder of pictures (RGB-D pairs \
        NAME_color.png + NAME_depth_mm.pgm carry depth) — the assistant guides continuously in the chosen \
        --mode: "Assistive Vision activated." once camera, model and audio are ready, then announcements as \
        the scene changes, each printed as "[12.4 s] Bus, 4 meters, ahead.". It ends with "End of video.", \
        "The stream stopped.", "Detection failed." (the --watchdog fired) or when the user says exit.

        With --speak-to a live input is rendered offline on its own clock: processed as fast as the machine \
        allows, skipping the frames a live run would have had no time for, with the speech in the WAV \
        aligned to the input (t seconds into the video is t seconds into the WAV). --transcript writes a \
        timed SubRip transcript of everything said or sounded; --at delivers commands at set times, and \
        --listen-file a recording of spoken commands, heard from the input's start on its clock.

        Exit status: 0 when the input ended or the user said exit; 1 when a fault ended the run (stream \
        stopped, unreadable input, detection failed) or a picture could not be described; 3 when the model \
        is missing or damaged; 4 when the input cannot be opened (no picture could be read); 5 when there \
        is no voice or audio device; 2 for other start-up failures.

        Examples:
          assist see photo.jpg
          assist see photo.jpg --json
          assist see room_color.png --depth room_depth.png --depth-format tum
          assist see ../shared/data/images/*.jpg --speak-to description.wav
          assist see /dev/video0 --mode navigate
          assist see walk.mp4 --mode navigate --speak-to guide.wav --transcript guide.srt
          assist see walk.mp4 --mode on-demand --at "3:scan now" --speak-to guide.wav --transcript guide.srt
          assist see walk.mp4 --listen-file commands.wav --speak-to guide.wav --transcript guide.srt
          assist see rtsp://192.168.1.20:8554/cam --interval 2
        """ + DocsPage.vision.seeAlso)

    @Argument(help: ArgumentHelp("Pictures (JPEG, PNG, WebP, BMP or anything else FFmpeg reads), or one live input: a video file, /dev/videoN, camera[:N], a stream URL or a folder of pictures.",
                                 valueName: "input"))
    var images: [String]

    @OptionGroup(title: "Detector") var detector: DetectorOptions
    @OptionGroup(title: "Camera") var camera: CameraOptions
    @OptionGroup(title: "Wording") var wording: WordingOptions
    @OptionGroup(title: "Depth") var depth: DepthOptions
    @OptionGroup(title: "Live guidance (a video, camera, stream or folder)") var live: LiveOptions

    @Flag(help: "Print every object as JSON (label, confidence, box, angle in degrees, direction, distance in meters or null) with stage timings, instead of sentences. Live: JSON Lines, one object per analysed frame.")
    var json = false

    @OptionGroup(title: "Speech") var speech: SpeechOutputOptions

    @OptionGroup(title: "Voice commands (live)") var voiceCommands: VoiceOptions

    @Flag(help: "Don't add what is announced to the detection history (assist history) or the usage statistics.")
    var noHistory = false

    @Flag(help: "Pictures: also find faces (how many, where, how far; never who, nor age, gender or mood), labelled face.")
    var faces = false

    @Option(help: ArgumentHelp("Pictures: answer this question about each picture instead of describing it, printed and spoken (\"how many people are there\", \"what colour is the bus\", \"what does the sign say\", \"describe the scene\"). Understood as a spoken command is; what the picture cannot tell (a name, an age) is said so. With --json, the answer and the objects it was based on.", valueName: "question"))
    var ask: String?

    func validate() throws {
        guard !images.isEmpty else { throw ValidationError("Give at least one picture to describe, or one live input.") }
        if depth.depth != nil && depth.depthModel != nil {
            throw ValidationError("Use either --depth (a measured depth image) or --depth-model, not both.")
        }
        if liveInput != nil {
            if images.count > 1 {
                throw ValidationError("Give one live input at a time (a video, a camera, a stream or a folder); several pictures are described one by one.")
            }
            if depth.depth != nil {
                throw ValidationError("--depth goes with a picture; a live input's depth comes from RGB-D pairs in a folder or from --depth-model.")
            }
            if ask != nil {
                throw ValidationError("--ask goes with pictures; in a live run, ask by voice, keyboard, the control socket or the web page.")
            }
            return
        }
        if depth.depth != nil && images.count > 1 {
            throw ValidationError("--depth goes with one picture; for several, put NAME_depth_mm.pgm beside each NAME_color picture.")
        }
        if voiceCommands.isWanted {
            throw ValidationError("Spoken commands (--listen, --listen-file) work with a live input (a video, a camera, a stream or a folder), not with pictures.")
        }
        if let option = live.optionsOnlyForLiveInput.first {
            throw ValidationError("\(option) works with a live input (a video, a camera, a stream or a folder), not with pictures.")
        }
    }

    func run() async throws {
        if let live = liveInput {
            try await runLive(live)
        } else {
            try await describePictures()
        }
    }
}

struct CameraOptions: ParsableArguments {
    @Option(help: ArgumentHelp(SettingsSchema.fieldOfView.optionHelp("The camera's field of view"), valueName: "degrees"))
    var fov: Double?

    @Option(help: "What --fov is measured across: horizontal (the picture's width) or longer-side (the sensor's longer side, as phone specifications give it).")
    var fovAxis: FieldOfViewAxis = .horizontal

    @Option(help: ArgumentHelp("Exact intrinsics in pixels instead of --fov: fx,fy,cx,cy.", valueName: "fx,fy,cx,cy"))
    var intrinsics: String?

    @Option(help: ArgumentHelp("Camera height above the floor in meters (chest-worn: 1.3).", valueName: "meters"))
    var cameraHeight: Double = Perception.CameraSettings.defaultHeightAboveFloorMeters

    @Option(help: ArgumentHelp("How far the camera looks down, in degrees (0 = level).", valueName: "degrees"))
    var cameraPitch: Double = Perception.CameraSettings.defaultPitchDownDegrees

    var choice: CameraChoice {
        CameraChoice(fieldOfViewDegrees: fov, fieldOfViewAxis: fovAxis, intrinsics: intrinsics,
                     heightAboveFloorMeters: cameraHeight, pitchDownDegrees: cameraPitch)
    }

    /// Bad camera values are bad usage (exit 64), refused before any work like every other option.
    func validate() throws {
        do { _ = try choice.settings() } catch let error as CameraSettingsError { throw ValidationError(FailureReport.sentence(for: error)) }
    }
}

struct WordingOptions: ParsableArguments, Sendable {
    @Option(help: ArgumentHelp(SettingsSchema.confidenceThreshold.optionHelp("Objects less certain than this are never mentioned")))
    var confidence: Float?

    @Option(help: ArgumentHelp(SettingsSchema.iouThreshold.optionHelp("Boxes of one class overlapping more than this are one object")))
    var iou: Float?

    @Option(help: "Mention at most this many objects, closest first (default: the stored setting, 5).")
    var maxObjects: Int?

    @Option(help: "Distances in meters or feet (default: the stored units setting).")
    var units: DistanceUnit?

    @Option(help: "Sentence form: brief (\"Chair, 2 meters, left.\") or full (\"Chair is 2 meters away on the left.\").")
    var style: SentenceStyle = .brief

    @Option(help: "Directions as words (left, slightly left, ahead, …) or clock positions (9 to 3 o'clock).")
    var directions: DirectionStyle = .words

    @Option(help: "Language of the sentences (a file in Guidance/Templates).")
    var language: String = "en"

    func validate() throws {
        if let problem = choice.problem { throw ValidationError(FailureReport.sentence(for: problem)) }
    }

    var choice: DescriptionChoice {
        DescriptionChoice(minimumConfidence: confidence, iouThreshold: iou, maximumObjects: maxObjects, unit: units,
                          sentenceStyle: style, directionStyle: directions, language: language)
    }
}

struct DepthOptions: ParsableArguments {
    @Option(help: ArgumentHelp("A measured depth image registered to the picture (16-bit PGM or PNG).", valueName: "path"))
    var depth: String?

    @Option(help: "How the depth image stores distance: mm (millimeters, 0 = no reading), tum (value/5000 m), sun (SUN RGB-D bit-rotated mm) or nyu (raw Kinect disparity).")
    var depthFormat: DepthFileFormat = .mm

    @Flag(help: "Don't look for a NAME_depth_mm.pgm/.png beside each picture.")
    var noDepthPairing = false

    @Option(help: ArgumentHelp("A learned monocular depth model (ONNX or IR): input 1×3×H×W, output 1×H×W or 1×1×H×W.", valueName: "path"))
    var depthModel: String?

    @Option(help: "What the depth model outputs: metric (meters) or relative (inverse depth, scaled by geometry).")
    var depthModelKind: DepthEstimator.OutputKind = .metric

    @Option(help: "How the depth model expects pixels: imagenet (mean/std normalised, as Depth Anything and MiDaS) or unit (0–1).")
    var depthModelInput: DepthEstimator.InputNormalization = .imageNet

    var modelChoice: DepthModelChoice {
        DepthModelChoice(modelPath: depthModel, outputKind: depthModelKind, normalization: depthModelInput)
    }

    var measuredChoice: MeasuredDepthChoice {
        MeasuredDepthChoice(depthPath: depth, format: depthFormat, pairsCompanionFiles: !noDepthPairing)
    }
}
