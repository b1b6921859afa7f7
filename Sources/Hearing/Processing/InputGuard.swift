/// The first stage of the chain: every input sample passes here before anything is measured
/// or amplified, so damaged input can never make the output loud or leave the chain stuck.
///
/// A sample that is not a number, infinite, or far beyond full scale is damaged, not sound: no
/// converter delivers it, and a single 3e38 (its square overflows to ∞) would otherwise turn
/// every band level, and with it every later gain, into NaN. Such samples enter as silence
/// and are counted, so the user can be told. Denormal-range samples are flushed to 0: they
/// carry no sound (below −600 dBFS) and make the FFT and the level followers slow.
public enum InputGuard {
    /// 4 = +12 dBFS. Float files may legitimately exceed full scale a little (an unnormalised
    /// mix); beyond +12 dB no real recording goes, and the chain's levels stay far from overflow.
    public static let absurdAmplitude: Float = 4
    /// Below this a sample is silence (about −600 dBFS, far below any converter's noise).
    static let silenceAmplitude: Float = 1e-30

    /// The sample as the chain should hear it, and whether it was damaged.
    @inline(__always)
    public static func admit(_ x: Float) -> (sample: Float, damaged: Bool) {
        let magnitude = abs(x)
        // `!(magnitude <= bound)` is also true for NaN.
        if !(magnitude <= absurdAmplitude) { return (0, true) }
        return (magnitude < silenceAmplitude ? 0 : x, false)
    }
}
