import Foundation
import Media

/// Which command-line inputs run the live loop, and what they open.
public enum LiveInputArgument {
    /// Files with these extensions are videos; any other file is a picture.
    public static let videoExtensions: Set<String> = ["mp4", "m4v", "mkv", "avi", "mov", "webm", "mjpeg", "mjpg", "mpg", "mpeg",
                                               "ts", "m2ts", "flv", "wmv", "3gp", "ogv", "y4m", "h264", "hevc"]

    /// The live input `argument` names, or nil for a picture. "camera" is the stored camera
    /// (`camera.device`: a device or an FFmpeg input; "default" for the first one `assist
    /// cameras` lists), "camera:N" is /dev/videoN.
    public static func classify(_ argument: String, storedCamera: String?, cameraFormat: CameraFormat,
                         folderRate: Double) -> VideoInput? {
        if argument == "camera" {
            if let stored = storedCamera?.trimmingCharacters(in: .whitespaces), !stored.isEmpty, stored != "default" {
                return stored.hasPrefix("/dev/video") ? .camera(devicePath: stored, format: cameraFormat)
                    : VideoInput(argument: stored, cameraFormat: cameraFormat, folderFramesPerSecond: folderRate)
            }
            let device = CameraList().cameras.first(where: \.isFirstNodeOfDevice)?.devicePath ?? "/dev/video0"
            return .camera(devicePath: device, format: cameraFormat)
        }
        if argument.hasPrefix("camera:"), let index = Int(argument.dropFirst("camera:".count)), index >= 0 {
            return .camera(devicePath: "/dev/video\(index)", format: cameraFormat)
        }
        let input = VideoInput(argument: argument, cameraFormat: cameraFormat, folderFramesPerSecond: folderRate)
        if case .file(let url) = input, !videoExtensions.contains(url.pathExtension.lowercased()) { return nil }
        return input
    }

    /// The live input a command line names, or nil for pictures: "camera" is the stored
    /// `camera.device`; with the battery saver the camera gives a smaller picture.
    public static func resolve(_ argument: String, batterySaver: Bool, folderRate: Double) -> VideoInput? {
        let storedCamera = argument == "camera" ? StoredVoiceSpeech.storedSettings()?.camera.device : nil
        return classify(argument, storedCamera: storedCamera, cameraFormat: cameraFormat(batterySaver: batterySaver), folderRate: folderRate)
    }

    /// The picture a camera is asked for: smaller with the battery saver.
    public static func cameraFormat(batterySaver: Bool) -> CameraFormat {
        batterySaver ? CameraFormat.standard.batterySaving : CameraFormat.standard
    }
}
