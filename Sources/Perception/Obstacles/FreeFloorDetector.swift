import AssistCore
import Foundation

/// How far the floor ahead is free, from the colour picture alone: the appearance-based method of
/// Ulrich & Nourbakhsh, "Appearance-Based Obstacle Detection with Monocular Color Vision" (AAAI
/// 2000).
///
/// The floor just ahead of the feet (a trapezoid at the bottom centre of the picture) is assumed
/// free, and its colours are learned as histograms of hue–saturation and of intensity. Every pixel
/// whose hue–saturation or intensity bin holds too few of the reference pixels is not floor. Each
/// column is followed upward from the bottom until the floor stops (a run of `obstacleRunRows`
/// non-floor pixels: shorter runs are texture, a seam, a shadow's edge); the row where it stops is
/// turned into a distance on the floor by the camera's height and tilt (`WalkingCorridor`), and the
/// columns whose stopping point is inside the walking corridor give the nearest obstacle.
///
/// Limits, as in the paper: the floor at the feet must be free and look like the rest of the floor
/// (a rug's edge or a change of flooring reads as an obstacle), a flat floor is assumed (a step
/// down is not seen), and an obstacle the colour of the floor is missed. The camera must be tilted
/// down enough to see the floor near the feet: level at 1.3 m with a 70° lens the nearest floor in
/// view is 2.5 m away.
public struct FreeFloorDetector: Sendable {
    public struct Settings: Sendable, Equatable {
        /// The reference trapezoid: its height as a share of the picture's, and its bottom and top
        /// widths as shares of the picture's width, centred.
        public var referenceHeightFraction = 0.12
        public var referenceBottomWidthFraction = 0.5
        public var referenceTopWidthFraction = 0.3
        /// Bins: hue in 16 (22.5° each), saturation in 4, intensity in 32 (8 levels each). Ulrich &
        /// Nourbakhsh used hue and intensity histograms of this order of coarseness.
        public var hueBins = 16
        public var saturationBins = 4
        public var intensityBins = 32
        /// Below this saturation hue is noise (a grey floor's hue jumps around the circle), so such
        /// pixels share one hue bin.
        public var greySaturation = 0.12
        /// A bin is floor when it holds at least this share of the reference pixels, after each bin
        /// is summed with its neighbours (so a small change of light does not make floor an obstacle).
        public var floorBinShare = 0.01
        /// Non-floor pixels in a row, upward, that end the floor in a column.
        public var obstacleRunRows = 4
        /// Columns (at least) that must see an obstacle at or nearer than the reported distance: one
        /// stray column (a cable, a reflection) is not an obstacle.
        public var minimumBlockedColumns = 3
        /// Floor farther than this is not examined: at 1.3 m a 2° tilt error makes 10 m anywhere
        /// from 7 to 18 m.
        public var maximumRangeMeters = 10.0

        public init() {}
    }

    /// One picture column: where its floor stopped.
    public struct Column: Sendable, Equatable {
        public let x: Int
        /// The lowest row of the first non-floor run, nil when the floor reached the range limit.
        public let obstacleRow: Int?
        /// The floor distance at `obstacleRow`.
        public let forwardMeters: Double?
        public let lateralMeters: Double?
        public let isInCorridor: Bool
    }

    public struct Result: Sendable, Equatable {
        /// The nearest obstacle in the walking corridor, in meters along the floor; nil when the
        /// corridor is free as far as it is examined.
        public let nearestObstacleMeters: Double?
        /// Every column of the picture, left to right.
        public let columns: [Column]
        /// The floor distance seen at the bottom of the picture: nothing nearer can be seen, so a
        /// nil `nearestObstacleMeters` means "free from here on", not "free at the feet". nil when
        /// the picture shows no floor (a camera looking level or up with a narrow lens).
        public let nearestVisibleFloorMeters: Double?
        /// How far the floor was examined (the range limit, or the farthest floor row in view).
        public let farthestExaminedFloorMeters: Double?
        /// The corridor columns that are blocked, nearest first.
        public var blockedCorridorColumns: [Column] {
            columns.filter { $0.isInCorridor && $0.forwardMeters != nil }.sorted { $0.forwardMeters! < $1.forwardMeters! }
        }
    }

    public let corridor: WalkingCorridor
    public let settings: Settings

    public init(corridor: WalkingCorridor = WalkingCorridor(), settings: Settings = Settings()) {
        self.corridor = corridor
        self.settings = settings
    }

    public func detect(in image: RGBImage) throws -> Result {
        let intrinsics = try corridor.camera.intrinsics(imageWidth: image.width, imageHeight: image.height)
        let model = FloorAppearance(learnedFrom: image, settings: settings)
        let projection = WalkingCorridor.Projection(corridor: corridor, intrinsics: intrinsics, width: image.width, height: image.height)
        // The floor's distance depends on the row only: rows above `topRow` are past the range
        // limit or above the horizon, in every column.
        var topRow = image.height
        while topRow > 0, let forward = projection.floorForwardMeters(row: topRow - 1), forward <= settings.maximumRangeMeters {
            topRow -= 1
        }
        let run = max(1, settings.obstacleRunRows)
        var columns: [Column] = []
        columns.reserveCapacity(image.width)
        image.pixels.withUnsafeBufferPointer { pixels in
            for x in 0..<image.width {
                var nonFloorRun = 0
                var obstacleRow: Int?
                var y = image.height - 1
                while y >= topRow {
                    let i = (y * image.width + x) * 3
                    if model.isFloor((pixels[i], pixels[i + 1], pixels[i + 2])) {
                        nonFloorRun = 0
                    } else {
                        nonFloorRun += 1
                        if nonFloorRun == run { obstacleRow = y + run - 1; break }
                    }
                    y -= 1
                }
                // The obstacle stands where its lowest row meets the floor: that row's lower edge.
                let point = obstacleRow.flatMap { corridor.floorPoint(x: Double(x) + 0.5, y: Double($0) + 1, intrinsics: intrinsics) }
                columns.append(Column(x: x, obstacleRow: obstacleRow, forwardMeters: point?.forwardMeters,
                                      lateralMeters: point?.lateralMeters,
                                      isInCorridor: point.map { corridor.contains(lateralMeters: $0.lateralMeters) } ?? false))
            }
        }
        let blocked = columns.compactMap { $0.isInCorridor ? $0.forwardMeters : nil }.sorted()
        let needed = max(1, settings.minimumBlockedColumns)
        let examined = topRow < image.height
        return Result(nearestObstacleMeters: blocked.count >= needed ? blocked[needed - 1] : nil, columns: columns,
                      nearestVisibleFloorMeters: examined ? projection.floorForwardMeters(row: image.height - 1) : nil,
                      farthestExaminedFloorMeters: examined ? projection.floorForwardMeters(row: topRow) : nil)
    }
}

/// The floor's colours, learned from the reference trapezoid.
struct FloorAppearance {
    private let settings: FreeFloorDetector.Settings
    private let hueSaturationIsFloor: [Bool]
    private let intensityIsFloor: [Bool]

    init(learnedFrom image: RGBImage, settings: FreeFloorDetector.Settings) {
        self.settings = settings
        let hueCount = settings.hueBins + 1   // the last bin holds the grey pixels
        var hueSaturation = [Double](repeating: 0, count: hueCount * settings.saturationBins)
        var intensity = [Double](repeating: 0, count: settings.intensityBins)
        var samples = 0.0
        let height = image.height, width = image.width
        let rows = max(1, Int((Double(height) * settings.referenceHeightFraction).rounded()))
        for row in 0..<rows {
            let y = height - 1 - row
            // The trapezoid narrows linearly from its bottom width to its top width.
            let fraction = settings.referenceBottomWidthFraction
                + (settings.referenceTopWidthFraction - settings.referenceBottomWidthFraction) * Double(row) / Double(max(1, rows - 1))
            let half = Double(width) * fraction / 2
            let from = max(0, Int((Double(width) / 2 - half).rounded())), to = min(width, Int((Double(width) / 2 + half).rounded()))
            for x in from..<to {
                let bins = Self.bins(of: image.pixel(x: x, y: y), settings: settings)
                hueSaturation[bins.hue * settings.saturationBins + bins.saturation] += 1
                intensity[bins.intensity] += 1
                samples += 1
            }
        }
        let threshold = settings.floorBinShare * max(samples, 1)
        // Each bin with its neighbours: hue wraps around, saturation and intensity do not; the grey
        // bin's neighbours are the lowest-saturation bins of every hue.
        var hueSaturationIsFloor = [Bool](repeating: false, count: hueSaturation.count)
        for hue in 0..<hueCount {
            for saturation in 0..<settings.saturationBins {
                var sum = 0.0
                let hues = hue == settings.hueBins ? [hue] : [(hue + settings.hueBins - 1) % settings.hueBins, hue, (hue + 1) % settings.hueBins]
                for h in hues {
                    for s in max(0, saturation - 1)...min(settings.saturationBins - 1, saturation + 1) {
                        sum += hueSaturation[h * settings.saturationBins + s]
                    }
                }
                hueSaturationIsFloor[hue * settings.saturationBins + saturation] = sum >= threshold
            }
        }
        let intensityIsFloor = intensity.indices.map { bin in
            intensity[max(0, bin - 1)...min(intensity.count - 1, bin + 1)].reduce(0, +) >= threshold
        }
        self.hueSaturationIsFloor = hueSaturationIsFloor
        self.intensityIsFloor = intensityIsFloor
    }

    /// Ulrich & Nourbakhsh: a pixel is an obstacle when either of its bins is below the threshold.
    func isFloor(_ pixel: (r: UInt8, g: UInt8, b: UInt8)) -> Bool {
        let bins = Self.bins(of: pixel, settings: settings)
        return intensityIsFloor[bins.intensity] && hueSaturationIsFloor[bins.hue * settings.saturationBins + bins.saturation]
    }

    /// HSI bins: intensity (r+g+b)/3, saturation 1 − min/intensity, hue by the hexagonal formula;
    /// hue `hueBins` for grey pixels.
    static func bins(of pixel: (r: UInt8, g: UInt8, b: UInt8), settings: FreeFloorDetector.Settings) -> (hue: Int, saturation: Int, intensity: Int) {
        let r = Double(pixel.r), g = Double(pixel.g), b = Double(pixel.b)
        let intensity = (r + g + b) / 3
        let smallest = min(r, g, b), largest = max(r, g, b)
        let saturation = intensity > 0 ? 1 - smallest / intensity : 0
        let intensityBin = min(settings.intensityBins - 1, Int(intensity / 256 * Double(settings.intensityBins)))
        let saturationBin = min(settings.saturationBins - 1, Int(saturation * Double(settings.saturationBins)))
        guard saturation >= settings.greySaturation, largest > smallest else {
            return (settings.hueBins, saturationBin, intensityBin)
        }
        let chroma = largest - smallest
        var hueSixths: Double
        if largest == r { hueSixths = (g - b) / chroma } else if largest == g { hueSixths = (b - r) / chroma + 2 } else { hueSixths = (r - g) / chroma + 4 }
        if hueSixths < 0 { hueSixths += 6 }
        let hueBin = min(settings.hueBins - 1, Int(hueSixths / 6 * Double(settings.hueBins)))
        return (hueBin, saturationBin, intensityBin)
    }
}
