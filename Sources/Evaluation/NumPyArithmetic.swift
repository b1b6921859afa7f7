/// The few NumPy operations that Ultralytics' metrics are built from, reproduced with NumPy's own
/// order of floating-point operations so that results agree to the last bit, not just to 1e-6.
enum NumPyArithmetic {
    /// `np.linspace(0, 1, count)`: `i * (1 / (count - 1))`, with the last point set to exactly 1.
    static func unitLinspace(_ count: Int) -> [Double] {
        let step = 1.0 / Double(count - 1)
        var points = (0..<count).map { Double($0) * step }
        points[count - 1] = 1
        return points
    }

    /// `np.sum` / `np.add.reduce` of float64: NumPy's pairwise summation (8 accumulators per
    /// block of up to 128 values, blocks split in halves rounded to multiples of 8).
    static func sum(_ values: [Double]) -> Double {
        values.withUnsafeBufferPointer { pairwiseSum($0[...]) }
    }

    static func mean(_ values: [Double]) -> Double {
        sum(values) / Double(values.count)
    }

    private static func pairwiseSum(_ a: Slice<UnsafeBufferPointer<Double>>) -> Double {
        let n = a.count, start = a.startIndex
        if n < 8 {
            var result = -0.0
            for value in a { result += value }
            return result
        }
        if n <= 128 {
            var r = (0..<8).map { a[start + $0] }
            var i = 8
            while i < n - n % 8 {
                for j in 0..<8 { r[j] += a[start + i + j] }
                i += 8
            }
            var result = ((r[0] + r[1]) + (r[2] + r[3])) + ((r[4] + r[5]) + (r[6] + r[7]))
            while i < n {
                result += a[start + i]
                i += 1
            }
            return result
        }
        var half = n / 2
        half -= half % 8
        return pairwiseSum(a[start..<(start + half)]) + pairwiseSum(a[(start + half)...])
    }

    /// `np.interp(x, xp, fp, left, right)` for increasing `xp` (repeats allowed): the segment is the
    /// last `j` with `xp[j] <= x`, and a point exactly on `xp[j]` takes `fp[j]`.
    static func interpolate(_ x: Double, _ xp: [Double], _ fp: [Double], left: Double? = nil, right: Double? = nil) -> Double {
        let last = xp.count - 1
        if x < xp[0] { return left ?? fp[0] }
        if x > xp[last] { return right ?? fp[last] }
        // Binary search for the last index with xp[j] <= x.
        var low = 0, high = xp.count
        while low < high {
            let middle = low + (high - low) / 2
            if x >= xp[middle] { low = middle + 1 } else { high = middle }
        }
        let j = low - 1
        if j == last || xp[j] == x { return fp[j] }
        let slope = (fp[j + 1] - fp[j]) / (xp[j + 1] - xp[j])
        let value = slope * (x - xp[j]) + fp[j]
        if value.isNaN {
            let other = slope * (x - xp[j + 1]) + fp[j + 1]
            if other.isNaN && fp[j] == fp[j + 1] { return fp[j] }
            return other
        }
        return value
    }

    /// `np.trapezoid(y, x)`: `sum(diff(x) * (y[1:] + y[:-1]) / 2)` with pairwise summation.
    static func trapezoid(_ y: [Double], _ x: [Double]) -> Double {
        var terms = [Double](repeating: 0, count: x.count - 1)
        for i in 0..<(x.count - 1) {
            terms[i] = (x[i + 1] - x[i]) * (y[i + 1] + y[i]) / 2.0
        }
        return sum(terms)
    }
}
