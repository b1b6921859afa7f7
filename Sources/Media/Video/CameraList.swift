import Foundation

/// The Video4Linux cameras on this machine, as `assist cameras` lists them.
///
/// Read from sysfs (`/sys/class/video4linux/videoN/name`), which needs no permission on the device
/// itself, so a camera the user may not open is still listed. One USB camera usually makes two
/// nodes (a capture node and a metadata node, sysfs `index` 0 and 1); both are listed, and the
/// capture node (index 0) is marked as the one to use.
public struct CameraList: Sendable, Equatable {
    public struct Camera: Sendable, Equatable {
        /// "/dev/video0".
        public var devicePath: String
        /// The driver's name for it ("Integrated Camera: Integrated C"); the node name when sysfs has none.
        public var name: String
        /// Whether this is a device's first node, the one that captures pictures on USB cameras.
        public var isFirstNodeOfDevice: Bool
    }

    public let cameras: [Camera]

    public static let defaultSysfsFolder = URL(fileURLWithPath: "/sys/class/video4linux")

    /// Lists the nodes under `sysfsFolder` (injectable for tests); their device files are assumed
    /// at `/dev/<node>`, as udev creates them.
    public init(sysfsFolder: URL = CameraList.defaultSysfsFolder, deviceFolder: String = "/dev") {
        let nodes = (try? FileManager.default.contentsOfDirectory(atPath: sysfsFolder.path)) ?? []
        cameras = nodes
            .filter { $0.hasPrefix("video") && Int($0.dropFirst("video".count)) != nil }
            .sorted { Int($0.dropFirst(5))! < Int($1.dropFirst(5))! }
            .map { node in
                let folder = sysfsFolder.appendingPathComponent(node)
                func attribute(_ name: String) -> String? {
                    guard let text = try? String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8) else { return nil }
                    let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
                    return trimmed.isEmpty ? nil : trimmed
                }
                return Camera(devicePath: deviceFolder + "/" + node, name: attribute("name") ?? node,
                              isFirstNodeOfDevice: (attribute("index").flatMap(Int.init) ?? 0) == 0)
            }
    }

    /// What `assist cameras` prints: one line per camera, or one sentence saying there is none.
    public var description: String {
        guard !cameras.isEmpty else {
            return "No camera was found. Plug in a camera and run assist cameras again."
        }
        return cameras.map { camera in
            camera.isFirstNodeOfDevice
                ? "\(camera.devicePath): \(camera.name)"
                : "\(camera.devicePath): \(camera.name) (a second node of the same camera, usually not for pictures)"
        }.joined(separator: "\n")
    }
}
