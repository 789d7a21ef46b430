import Foundation

/// Geodesics on an ellipsoid of revolution: the inverse problem (distance and azimuths between two
/// points) and the direct problem (destination from a start, an azimuth and a distance).
///
/// This is an implementation of C. F. F. Karney, "Algorithms for geodesics", J. Geodesy 87, 43–55 (2013),
/// written from the paper's mathematics: the auxiliary-sphere formulation with the integrals I1, I2, I3
/// expanded as series in the third flattening n and in ε to order 6 (paper eqs. 17–25, 42),
/// Newton's method on the azimuth α1 at the equator crossing for the inverse problem (eqs. 44–46),
/// guarded by bisection, and the astroid solution (eqs. 53–57) as the starting guess for nearly
/// antipodal points, where Vincenty's method fails to converge.
///
/// Accuracy (WGS84): the series are truncated at a level of about 15 nm; the reference table in
/// `Tests/GeodesyTests/Fixtures/geodesic-table.csv` (geographiclib) is matched to well under 1 mm in
/// distance and destination, for all pairs of points including antipodal ones. Azimuths are in degrees
/// clockwise from north, normalised to [0, 360). Cost: the inverse problem typically takes a few Newton
/// iterations (each a handful of trigonometric calls and two series evaluations); the direct problem has
/// no iteration. Neither touches the heap (the series live in fixed-size `InlineArray`s).
public struct Geodesic: Sendable {
    /// The WGS84 ellipsoid: a = 6 378 137 m, f = 1/298.257223563.
    public static let wgs84 = Geodesic(validatedEquatorialRadiusMeters: WGS84.equatorialRadiusMeters,
                                       flattening: WGS84.flattening)

    /// Equatorial radius (semi-major axis) a, metres.
    public let equatorialRadiusMeters: Double
    /// Flattening f = (a - b) / a, dimensionless.
    public let flattening: Double
    /// Polar radius (semi-minor axis) b = a (1 - f), metres.
    public let polarRadiusMeters: Double

    // Derived constants, named as in the paper.
    private let f1: Double      // 1 - f
    private let ep2: Double     // second eccentricity squared, e'^2
    private let n: Double       // third flattening f / (2 - f)
    private let etol2: Double   // tolerance for the short-line shortcut in the inverse start
    private let a3Coefficients: InlineArray<6, Double>   // A3 as a polynomial in ε (coefficients depend on n)
    private let c3Coefficients: InlineArray<25, Double>  // C3l as polynomials in ε, index 5(l-1) + (j-1)

    /// Creates the geodesic solver for an ellipsoid.
    ///
    /// - Parameters:
    ///   - equatorialRadiusMeters: semi-major axis a, metres, finite and > 0.
    ///   - flattening: f in [0, 0.01] (oblate or a sphere; the order-6 series are accurate there).
    /// - Throws: ``GeodesyError/ellipsoidOutOfRange(equatorialRadiusMeters:flattening:)``.
    public init(equatorialRadiusMeters: Double, flattening: Double) throws(GeodesyError) {
        guard equatorialRadiusMeters.isFinite, equatorialRadiusMeters > 0,
              flattening.isFinite, (0...0.01).contains(flattening) else {
            throw .ellipsoidOutOfRange(equatorialRadiusMeters: equatorialRadiusMeters, flattening: flattening)
        }
        self.init(validatedEquatorialRadiusMeters: equatorialRadiusMeters, flattening: flattening)
    }

    private init(validatedEquatorialRadiusMeters a: Double, flattening f: Double) {
        equatorialRadiusMeters = a
        flattening = f
        f1 = 1 - f
        polarRadiusMeters = a * (1 - f)
        let e2 = f * (2 - f)
        ep2 = e2 / ((1 - f) * (1 - f))
        n = f / (2 - f)
        etol2 = 0.1 * Self.tol2 / (max(0.001, abs(f)) * min(1, 1 - f / 2) / 2).squareRoot()

        // A3 = Σ_j a3_j ε^j, paper eq. 24.
        var a3 = InlineArray<6, Double>(repeating: 0)
        a3[0] = 1
        a3[1] = -(1.0 / 2 - n / 2)
        a3[2] = -(1.0 / 4 + n / 8 - 3 * n * n / 8)
        a3[3] = -(1.0 / 16 + 3 * n / 16 + n * n / 16)
        a3[4] = -(3.0 / 64 + n / 32)
        a3[5] = -3.0 / 128
        a3Coefficients = a3

        // C3l = Σ_j c3_lj ε^j, paper eq. 25.
        var c3 = InlineArray<25, Double>(repeating: 0)
        func set(_ l: Int, _ j: Int, _ value: Double) { c3[5 * (l - 1) + (j - 1)] = value }
        set(1, 1, 1.0 / 4 - n / 4)
        set(1, 2, 1.0 / 8 - n * n / 8)
        set(1, 3, 3.0 / 64 + 3 * n / 64 - n * n / 64)
        set(1, 4, 5.0 / 128 + n / 64)
        set(1, 5, 3.0 / 128)
        set(2, 2, 1.0 / 16 - 3 * n / 32 + n * n / 32)
        set(2, 3, 3.0 / 64 - n / 32 - 3 * n * n / 64)
        set(2, 4, 3.0 / 128 + n / 128)
        set(2, 5, 5.0 / 256)
        set(3, 3, 5.0 / 192 - 3 * n / 64 + 5 * n * n / 192)
        set(3, 4, 3.0 / 128 - 5 * n / 192)
        set(3, 5, 7.0 / 512)
        set(4, 4, 7.0 / 512 - 7 * n / 256)
        set(4, 5, 7.0 / 512)
        set(5, 5, 21.0 / 2560)
        c3Coefficients = c3
    }

    // MARK: Public API

    /// The solution of the inverse problem between two points.
    public struct Inverse: Sendable, Hashable {
        /// Length of the shortest geodesic between the points, metres (≥ 0).
        public let distanceMeters: Double
        /// Azimuth of the geodesic at the start, degrees clockwise from north in [0, 360).
        /// For coincident points this is the azimuth of the (degenerate) meridian path, 0 or 180.
        public let initialAzimuth: Angle
        /// Forward azimuth of the geodesic at the end point (direction of travel when arriving),
        /// degrees clockwise from north in [0, 360).
        public let finalAzimuth: Angle
        /// Arc length on the auxiliary sphere, degrees (≈ the spherical central angle).
        public let arcLengthDegrees: Double
    }

    /// The solution of the direct problem.
    public struct Direct: Sendable, Hashable {
        /// The point reached, longitude normalised to [-180, 180).
        public let destination: GeoCoordinate
        /// Forward azimuth of the geodesic at the destination, degrees clockwise from north in [0, 360).
        public let finalAzimuth: Angle
    }

    /// Solves the inverse problem: the shortest geodesic from `start` to `end`.
    ///
    /// Works for every pair of valid coordinates, including coincident, polar, equatorial, meridional,
    /// nearly antipodal and exactly antipodal points (for the latter the geodesic is not unique; the
    /// distance is, and one of the shortest paths is returned) and pairs across the 180th meridian.
    public func inverse(from start: GeoCoordinate, to end: GeoCoordinate) -> Inverse {
        let r = solveInverse(start.latitude, start.longitude, end.latitude, end.longitude)
        return Inverse(distanceMeters: r.distance,
                       initialAzimuth: Angle(degrees: Angle.normalizedHeadingDegrees(r.azimuth1)),
                       finalAzimuth: Angle(degrees: Angle.normalizedHeadingDegrees(r.azimuth2)),
                       arcLengthDegrees: r.arcDegrees)
    }

    /// Solves the direct problem: where a geodesic leaving `start` with `azimuth` ends after
    /// `distanceMeters`.
    ///
    /// - Parameters:
    ///   - azimuth: initial direction, clockwise from north (any finite value; it is normalised).
    ///     At a pole the azimuth is measured as if the start were at the given longitude approaching
    ///     the pole (the limit), as in GeographicLib.
    ///   - distanceMeters: signed length along the geodesic, metres; negative goes backwards. Any finite
    ///     value; distances beyond half the meridian ellipse wrap around the globe.
    /// - Throws: ``GeodesyError/notFinite(parameter:value:)`` for a NaN or infinite azimuth or distance.
    public func direct(from start: GeoCoordinate, azimuth: Angle, distanceMeters: Double) throws(GeodesyError) -> Direct {
        guard azimuth.degrees.isFinite else { throw .notFinite(parameter: "azimuthDegrees", value: azimuth.degrees) }
        guard distanceMeters.isFinite else { throw .notFinite(parameter: "distanceMeters", value: distanceMeters) }
        let r = solveDirect(start.latitude, start.longitude, azimuth.degrees, distanceMeters)
        return Direct(destination: GeoCoordinate(uncheckedLatitude: r.latitude, longitude: r.longitude),
                      finalAzimuth: Angle(degrees: Angle.normalizedHeadingDegrees(r.azimuth2)))
    }

    // MARK: Constants

    private static let tiny = Double.leastNormalMagnitude.squareRoot()
    private static let tol0 = Double.ulpOfOne
    private static let tol1 = 200 * tol0
    private static let tol2 = tol0.squareRoot()
    private static let tolb = tol0 * tol2  // bisection tolerance on (sin α1, cos α1)
    private static let xthresh = 1000 * tol2
    private static let maxNewtonIterations = 20
    private static let maxIterations = maxNewtonIterations + Double.significandBitCount + 1 + 10
    private static let degree = Double.pi / 180

    // MARK: Series (paper eqs. 17, 18, 21, 42, 43, 24, 25), ε = k² / (2 (1 + √(1 + k²)) + k²)

    typealias Series = InlineArray<7, Double>  // index 1...6 used

    @inline(__always) private static func epsilon(k2: Double) -> Double {
        k2 / (2 * (1 + (1 + k2).squareRoot()) + k2)
    }

    /// A1 - 1, where A1 = (1 + ε²/4 + ε⁴/64 + ε⁶/256) / (1 - ε).
    @inline(__always) private static func a1MinusOne(_ eps: Double) -> Double {
        let e2 = eps * eps
        let t = e2 * (1.0 / 4 + e2 * (1.0 / 64 + e2 / 256))
        return (t + eps) / (1 - eps)
    }

    /// Coefficients C1l of I1 = A1 (σ + Σ C1l sin 2lσ).
    @inline(__always) private static func c1(_ eps: Double) -> Series {
        let e2 = eps * eps
        var c = Series(repeating: 0)
        var d = eps
        c[1] = d * (-1.0 / 2 + e2 * (3.0 / 16 - e2 / 32)); d *= eps
        c[2] = d * (-1.0 / 16 + e2 * (1.0 / 32 - e2 * 9 / 2048)); d *= eps
        c[3] = d * (-1.0 / 48 + e2 * 3 / 256); d *= eps
        c[4] = d * (-5.0 / 512 + e2 * 3 / 512); d *= eps
        c[5] = d * (-7.0 / 1280); d *= eps
        c[6] = d * (-7.0 / 2048)
        return c
    }

    /// Coefficients C1'l of the reversion σ = τ + Σ C1'l sin 2lτ.
    @inline(__always) private static func c1Prime(_ eps: Double) -> Series {
        let e2 = eps * eps
        var c = Series(repeating: 0)
        var d = eps
        c[1] = d * (1.0 / 2 + e2 * (-9.0 / 32 + e2 * 205 / 1536)); d *= eps
        c[2] = d * (5.0 / 16 + e2 * (-37.0 / 96 + e2 * 1335 / 4096)); d *= eps
        c[3] = d * (29.0 / 96 - e2 * 75 / 128); d *= eps
        c[4] = d * (539.0 / 1536 - e2 * 2391 / 2560); d *= eps
        c[5] = d * (3467.0 / 7680); d *= eps
        c[6] = d * (38081.0 / 61440)
        return c
    }

    /// A2 - 1, where A2 = (1 - ε)(1 + ε²/4 + 9ε⁴/64 + 25ε⁶/256).
    @inline(__always) private static func a2MinusOne(_ eps: Double) -> Double {
        let e2 = eps * eps
        let t = e2 * (1.0 / 4 + e2 * (9.0 / 64 + e2 * 25 / 256))
        return t * (1 - eps) - eps
    }

    /// Coefficients C2l of I2 = A2 (σ + Σ C2l sin 2lσ).
    @inline(__always) private static func c2(_ eps: Double) -> Series {
        let e2 = eps * eps
        var c = Series(repeating: 0)
        var d = eps
        c[1] = d * (1.0 / 2 + e2 * (1.0 / 16 + e2 / 32)); d *= eps
        c[2] = d * (3.0 / 16 + e2 * (1.0 / 32 + e2 * 35 / 2048)); d *= eps
        c[3] = d * (5.0 / 48 + e2 * 5 / 256); d *= eps
        c[4] = d * (35.0 / 512 + e2 * 7 / 512); d *= eps
        c[5] = d * (63.0 / 1280); d *= eps
        c[6] = d * (77.0 / 2048)
        return c
    }

    @inline(__always) private func a3(_ eps: Double) -> Double {
        var v = 0.0
        for j in stride(from: 5, through: 0, by: -1) { v = v * eps + a3Coefficients[j] }
        return v
    }

    /// Coefficients C3l of I3 = A3 (σ + Σ C3l sin 2lσ), l = 1...5.
    @inline(__always) private func c3(_ eps: Double) -> Series {
        var c = Series(repeating: 0)
        for l in 1...5 {
            var v = 0.0
            for j in stride(from: 5, through: l, by: -1) { v = v * eps + c3Coefficients[5 * (l - 1) + (j - 1)] }
            var power = 1.0
            for _ in 0..<l { power *= eps }
            c[l] = v * power
        }
        return c
    }

    /// Σ_{l=1}^{6} c_l sin(2lσ) from sin σ and cos σ, by Clenshaw summation.
    @inline(__always) private static func sinSeries(_ sinSigma: Double, _ cosSigma: Double, _ c: Series) -> Double {
        let ar = 2 * (cosSigma - sinSigma) * (cosSigma + sinSigma)  // 2 cos 2σ
        var b1 = 0.0, b2 = 0.0
        for l in stride(from: 6, through: 1, by: -1) {
            let b0 = ar * b1 - b2 + c[l]
            b2 = b1
            b1 = b0
        }
        return 2 * sinSigma * cosSigma * b1
    }

    // MARK: Inverse problem

    /// Distance s12/b and reduced length m12/b between σ1 and σ2 (paper eqs. 7, 38).
    private func lengths(_ eps: Double, _ sig12: Double,
                         _ ssig1: Double, _ csig1: Double, _ dn1: Double,
                         _ ssig2: Double, _ csig2: Double, _ dn2: Double) -> (s12b: Double, m12b: Double) {
        let c1a = Self.c1(eps), c2a = Self.c2(eps)
        let a1m1 = Self.a1MinusOne(eps), a2m1 = Self.a2MinusOne(eps)
        let b1 = Self.sinSeries(ssig2, csig2, c1a) - Self.sinSeries(ssig1, csig1, c1a)
        let b2 = Self.sinSeries(ssig2, csig2, c2a) - Self.sinSeries(ssig1, csig1, c2a)
        let s12b = (1 + a1m1) * (sig12 + b1)
        let j12 = (a1m1 - a2m1) * sig12 + ((1 + a1m1) * b1 - (1 + a2m1) * b2)
        let m12b = dn2 * (csig1 * ssig2) - dn1 * (ssig1 * csig2) - csig1 * csig2 * j12
        return (s12b, m12b)
    }

    /// The positive root k of the astroid equation k⁴ + 2k³ − (x² + y² − 1)k² − 2y²k − y² = 0
    /// (paper eq. 55), solved in closed form.
    private static func astroid(_ x: Double, _ y: Double) -> Double {
        let p = x * x, q = y * y
        let r = (p + q - 1) / 6
        guard !(q == 0 && r <= 0) else { return 0 }
        let s = p * q / 4
        let r2 = r * r, r3 = r * r2
        let discriminant = s * (s + 2 * r3)
        var u = r
        if discriminant >= 0 {
            var t3 = s + r3
            t3 += t3 < 0 ? -discriminant.squareRoot() : discriminant.squareRoot()
            let t = Foundation.cbrt(t3)
            u += t + (t != 0 ? r2 / t : 0)
        } else {
            let angle = Foundation.atan2((-discriminant).squareRoot(), -(s + r3))
            u += 2 * r * Foundation.cos(angle / 3)
        }
        let v = (u * u + q).squareRoot()
        let uv = u < 0 ? q / (v - u) : u + v
        let w = (uv - q) / (2 * v)
        return uv / ((uv + w * w).squareRoot() + w)
    }

    private struct Start {
        var sig12 = -1.0  // ≥ 0 when the short-line shortcut already solved the problem
        var salp1 = 0.0, calp1 = 0.0, salp2 = Double.nan, calp2 = Double.nan, dnm = Double.nan
    }

    /// Starting guess for α1 (paper §5): the spherical solution with a mean radius for short lines,
    /// the astroid for nearly antipodal points.
    private func inverseStart(_ sbet1: Double, _ cbet1: Double, _ sbet2: Double, _ cbet2: Double,
                              _ lam12: Double, _ slam12: Double, _ clam12: Double) -> Start {
        var start = Start()
        let sbet12 = sbet2 * cbet1 - cbet2 * sbet1   // sin(β2 − β1)
        let cbet12 = cbet2 * cbet1 + sbet2 * sbet1
        let sbet12a = sbet2 * cbet1 + cbet2 * sbet1  // sin(β2 + β1)
        let shortline = cbet12 >= 0 && sbet12 < 0.5 && cbet2 * lam12 < 0.5
        var somg12 = slam12, comg12 = clam12
        if shortline {
            var sbetm2 = (sbet1 + sbet2) * (sbet1 + sbet2)
            sbetm2 /= sbetm2 + (cbet1 + cbet2) * (cbet1 + cbet2)
            start.dnm = (1 + ep2 * sbetm2).squareRoot()
            let omg12 = lam12 / (f1 * start.dnm)
            somg12 = Foundation.sin(omg12)
            comg12 = Foundation.cos(omg12)
        }
        var salp1 = cbet2 * somg12
        var calp1 = comg12 >= 0
            ? sbet12 + cbet2 * sbet1 * somg12 * somg12 / (1 + comg12)
            : sbet12a - cbet2 * sbet1 * somg12 * somg12 / (1 - comg12)
        let ssig12 = Foundation.hypot(salp1, calp1)
        let csig12 = sbet1 * sbet2 + cbet1 * cbet2 * comg12

        if shortline && ssig12 < etol2 {
            var salp2 = cbet1 * somg12
            var calp2 = sbet12 - cbet1 * sbet2 * (comg12 >= 0 ? somg12 * somg12 / (1 + comg12) : 1 - comg12)
            (salp2, calp2) = Trigonometry.normalized(salp2, calp2)
            start.salp2 = salp2
            start.calp2 = calp2
            start.sig12 = Foundation.atan2(ssig12, csig12)
        } else if abs(n) > 0.1 || csig12 >= 0 || ssig12 >= 6 * abs(n) * .pi * cbet1 * cbet1 {
            // Not nearly antipodal: the spherical guess is good enough for Newton's method.
        } else {
            // Nearly antipodal: scale into the astroid's coordinates (paper eqs. 53–54).
            let lam12x = Foundation.atan2(-slam12, -clam12)  // λ12 − π
            let k2 = sbet1 * sbet1 * ep2
            let lamscale = flattening * cbet1 * a3(Self.epsilon(k2: k2)) * .pi
            let betscale = lamscale * cbet1
            let x = lam12x / lamscale
            let y = sbet12a / betscale
            if y > -Self.tol1 && x > -1 - Self.xthresh {
                salp1 = min(1, -x)
                calp1 = -(1 - salp1 * salp1).squareRoot()
            } else {
                let k = Self.astroid(x, y)
                let omg12a = lamscale * (-x * k / (1 + k))
                somg12 = Foundation.sin(omg12a)
                comg12 = -Foundation.cos(omg12a)
                salp1 = cbet2 * somg12
                calp1 = sbet12a - cbet2 * sbet1 * somg12 * somg12 / (1 - comg12)
            }
        }
        if !(salp1 <= 0) {
            (salp1, calp1) = Trigonometry.normalized(salp1, calp1)
        } else {
            salp1 = 1
            calp1 = 0
        }
        start.salp1 = salp1
        start.calp1 = calp1
        return start
    }

    private struct LambdaResult {
        var lam12 = 0.0  // λ12(α1) − λ12(target), radians
        var salp2 = 0.0, calp2 = 0.0, sig12 = 0.0
        var ssig1 = 0.0, csig1 = 0.0, ssig2 = 0.0, csig2 = 0.0
        var eps = 0.0, derivative = 0.0
    }

    /// The longitude difference reached by the geodesic leaving point 1 with azimuth α1, minus the
    /// target, and its derivative with respect to α1 (paper eqs. 5–8, 46).
    private func lambda12(_ sbet1: Double, _ cbet1: Double, _ dn1: Double,
                          _ sbet2: Double, _ cbet2: Double, _ dn2: Double,
                          _ salp1: Double, _ calp1In: Double, _ slam120: Double, _ clam120: Double,
                          derivative: Bool) -> LambdaResult {
        var r = LambdaResult()
        var calp1 = calp1In
        if sbet1 == 0 && calp1 == 0 { calp1 = -Self.tiny }  // break the degeneracy of equatorial lines
        let salp0 = salp1 * cbet1
        let calp0 = Foundation.hypot(calp1, salp1 * sbet1)
        let somg1 = salp0 * sbet1
        let comg1 = calp1 * cbet1
        (r.ssig1, r.csig1) = Trigonometry.normalized(sbet1, calp1 * cbet1)

        r.salp2 = cbet2 != cbet1 ? salp0 / cbet2 : salp1
        r.calp2 = cbet2 != cbet1 || abs(sbet2) != -sbet1
            ? ((calp1 * cbet1) * (calp1 * cbet1)
               + (cbet1 < -sbet1 ? (cbet2 - cbet1) * (cbet1 + cbet2) : (sbet1 - sbet2) * (sbet1 + sbet2)))
                .squareRoot() / cbet2
            : abs(calp1)
        let somg2 = salp0 * sbet2
        let comg2 = r.calp2 * cbet2
        (r.ssig2, r.csig2) = Trigonometry.normalized(sbet2, r.calp2 * cbet2)

        r.sig12 = Foundation.atan2(max(0, r.csig1 * r.ssig2 - r.ssig1 * r.csig2),
                                   r.csig1 * r.csig2 + r.ssig1 * r.ssig2)
        let somg12 = max(0, comg1 * somg2 - somg1 * comg2)
        let comg12 = comg1 * comg2 + somg1 * somg2
        let eta = Foundation.atan2(somg12 * clam120 - comg12 * slam120, comg12 * clam120 + somg12 * slam120)
        r.eps = Self.epsilon(k2: calp0 * calp0 * ep2)
        let c3a = c3(r.eps)
        let b312 = Self.sinSeries(r.ssig2, r.csig2, c3a) - Self.sinSeries(r.ssig1, r.csig1, c3a)
        let domg12 = -flattening * a3(r.eps) * salp0 * (r.sig12 + b312)
        r.lam12 = eta + domg12
        if derivative {
            if r.calp2 == 0 {
                r.derivative = -2 * f1 * dn1 / sbet1
            } else {
                let m12b = lengths(r.eps, r.sig12, r.ssig1, r.csig1, dn1, r.ssig2, r.csig2, dn2).m12b
                r.derivative = m12b * f1 / (r.calp2 * cbet2)
            }
        }
        return r
    }

    /// The inverse problem on plain degrees; azimuths returned in (-180, 180].
    func solveInverse(_ latitude1: Double, _ longitude1: Double, _ latitude2: Double, _ longitude2: Double)
        -> (distance: Double, azimuth1: Double, azimuth2: Double, arcDegrees: Double) {
        let a = equatorialRadiusMeters, b = polarRadiusMeters, f = flattening
        // Reduce to lon12 ≥ 0, |lat1| ≥ |lat2|, lat1 ≤ 0; the symmetries are undone at the end.
        var (lon12, lon12error) = Trigonometry.angleDifference(longitude1, longitude2)
        var lonsign: Double = lon12.sign == .minus ? -1 : 1
        lon12 = lonsign * Trigonometry.roundTiny(lon12)
        let lon12supplement = Trigonometry.roundTiny((180 - lon12) - lonsign * lon12error)
        let lam12 = lon12 * Self.degree
        var slam12: Double, clam12: Double
        if lon12 > 90 {
            (slam12, clam12) = Trigonometry.sinCosDegrees(lon12supplement)
            clam12 = -clam12
        } else {
            (slam12, clam12) = Trigonometry.sinCosDegrees(lon12)
        }

        var lat1 = Trigonometry.roundTiny(latitude1), lat2 = Trigonometry.roundTiny(latitude2)
        let swapp: Double = abs(lat1) < abs(lat2) ? -1 : 1
        if swapp < 0 {
            lonsign = -lonsign
            swap(&lat1, &lat2)
        }
        let latsign: Double = lat1.sign == .minus ? 1 : -1
        lat1 *= latsign
        lat2 *= latsign

        var (sbet1, cbet1) = Trigonometry.sinCosDegrees(lat1)
        (sbet1, cbet1) = Trigonometry.normalized(f1 * sbet1, cbet1)
        cbet1 = max(Self.tiny, cbet1)
        var (sbet2, cbet2) = Trigonometry.sinCosDegrees(lat2)
        (sbet2, cbet2) = Trigonometry.normalized(f1 * sbet2, cbet2)
        cbet2 = max(Self.tiny, cbet2)
        // Make symmetric cases exactly symmetric (cos β2 = cos β1 when |β2| = |β1|).
        if cbet1 < -sbet1 {
            if cbet2 == cbet1 { sbet2 = Double(signOf: sbet2, magnitudeOf: sbet1) }
        } else if abs(sbet2) == -sbet1 {
            cbet2 = cbet1
        }
        let dn1 = (1 + ep2 * sbet1 * sbet1).squareRoot()
        let dn2 = (1 + ep2 * sbet2 * sbet2).squareRoot()

        var sig12 = 0.0, s12 = 0.0, arcDegrees = 0.0
        var salp1 = 0.0, calp1 = 0.0, salp2 = 0.0, calp2 = 0.0

        var meridian = lat1 == -90 || slam12 == 0
        if meridian {
            // Along a meridian (possibly over a pole): α1 = λ12, α2 = 0 in the reduced frame.
            calp1 = clam12
            salp1 = slam12
            calp2 = 1
            salp2 = 0
            let ssig1 = sbet1, csig1 = calp1 * cbet1
            let ssig2 = sbet2, csig2 = calp2 * cbet2
            sig12 = Foundation.atan2(max(0, csig1 * ssig2 - ssig1 * csig2), csig1 * csig2 + ssig1 * ssig2)
            var (s12b, m12b) = lengths(n, sig12, ssig1, csig1, dn1, ssig2, csig2, dn2)
            // Over a pole the meridian is only the shortest path up to the conjugate point.
            if sig12 < 1 || m12b >= 0 {
                if sig12 < 3 * Self.tiny || (sig12 < Self.tol0 && (s12b < 0 || m12b < 0)) {
                    sig12 = 0
                    s12b = 0
                    m12b = 0
                }
                s12 = s12b * b
                arcDegrees = sig12 / Self.degree
            } else {
                meridian = false
            }
        }

        if !meridian && sbet1 == 0 && (f <= 0 || lon12supplement >= f * 180) {
            // Along the equator, which is the shortest path up to λ12 = (1 − f) π.
            calp1 = 0
            calp2 = 0
            salp1 = 1
            salp2 = 1
            s12 = a * lam12
            sig12 = lam12 / f1
            arcDegrees = lon12 / f1
        } else if !meridian {
            let start = inverseStart(sbet1, cbet1, sbet2, cbet2, lam12, slam12, clam12)
            salp1 = start.salp1
            calp1 = start.calp1
            if start.sig12 >= 0 {
                // Short line solved directly by the start.
                sig12 = start.sig12
                salp2 = start.salp2
                calp2 = start.calp2
                s12 = sig12 * b * start.dnm
                arcDegrees = sig12 / Self.degree
            } else {
                // Newton on α1, bracketed by [α1a, α1b] with bisection as the fallback.
                var r = LambdaResult()
                var salp1a = Self.tiny, calp1a = 1.0, salp1b = Self.tiny, calp1b = -1.0
                var tripn = false, tripb = false
                for iteration in 0..<Self.maxIterations {
                    r = lambda12(sbet1, cbet1, dn1, sbet2, cbet2, dn2, salp1, calp1, slam12, clam12,
                                 derivative: iteration < Self.maxNewtonIterations)
                    let v = r.lam12
                    if tripb || !(abs(v) >= (tripn ? 8 : 1) * Self.tol0) { break }
                    if v > 0 && (iteration > Self.maxNewtonIterations || calp1 / salp1 > calp1b / salp1b) {
                        salp1b = salp1
                        calp1b = calp1
                    } else if v < 0 && (iteration > Self.maxNewtonIterations || calp1 / salp1 < calp1a / salp1a) {
                        salp1a = salp1
                        calp1a = calp1
                    }
                    if iteration < Self.maxNewtonIterations && r.derivative > 0 {
                        let dalp1 = -v / r.derivative
                        if abs(dalp1) < .pi {
                            let sdalp1 = Foundation.sin(dalp1), cdalp1 = Foundation.cos(dalp1)
                            let nsalp1 = salp1 * cdalp1 + calp1 * sdalp1
                            if nsalp1 > 0 {
                                (salp1, calp1) = Trigonometry.normalized(nsalp1, calp1 * cdalp1 - salp1 * sdalp1)
                                tripn = abs(v) <= 16 * Self.tol0
                                continue
                            }
                        }
                    }
                    // Newton failed or left the bracket: bisect.
                    (salp1, calp1) = Trigonometry.normalized((salp1a + salp1b) / 2, (calp1a + calp1b) / 2)
                    tripn = false
                    tripb = abs(salp1a - salp1) + (calp1a - calp1) < Self.tolb
                        || abs(salp1 - salp1b) + (calp1 - calp1b) < Self.tolb
                }
                sig12 = r.sig12
                salp2 = r.salp2
                calp2 = r.calp2
                let s12b = lengths(r.eps, sig12, r.ssig1, r.csig1, dn1, r.ssig2, r.csig2, dn2).s12b
                s12 = s12b * b
                arcDegrees = sig12 / Self.degree
            }
        }

        // Undo the symmetry reductions.
        if swapp < 0 {
            swap(&salp1, &salp2)
            swap(&calp1, &calp2)
        }
        salp1 *= swapp * lonsign
        calp1 *= swapp * latsign
        salp2 *= swapp * lonsign
        calp2 *= swapp * latsign
        return (0 + s12, Trigonometry.atan2Degrees(salp1, calp1), Trigonometry.atan2Degrees(salp2, calp2), arcDegrees)
    }

    // MARK: Direct problem

    /// The direct problem on plain degrees; the azimuth at point 2 is returned in (-180, 180].
    func solveDirect(_ latitude1: Double, _ longitude1: Double, _ azimuth1: Double, _ distance: Double)
        -> (latitude: Double, longitude: Double, azimuth2: Double) {
        let b = polarRadiusMeters
        let (salp1, calp1) = Trigonometry.sinCosDegrees(Trigonometry.roundTiny(
            GeoCoordinate.normalizedLongitude(azimuth1)))
        var (sbet1, cbet1) = Trigonometry.sinCosDegrees(Trigonometry.roundTiny(latitude1))
        (sbet1, cbet1) = Trigonometry.normalized(f1 * sbet1, cbet1)
        cbet1 = max(Self.tiny, cbet1)

        // The geodesic's equator crossing: azimuth α0, and σ1, ω1 measured from it.
        let salp0 = salp1 * cbet1
        let calp0 = Foundation.hypot(calp1, salp1 * sbet1)
        let somg1 = salp0 * sbet1
        let comg1 = sbet1 != 0 || calp1 != 0 ? cbet1 * calp1 : 1
        let (ssig1, csig1) = Trigonometry.normalized(sbet1, comg1)
        let eps = Self.epsilon(k2: calp0 * calp0 * ep2)
        let a1m1 = Self.a1MinusOne(eps)
        let c1a = Self.c1(eps), c1pa = Self.c1Prime(eps), c3a = c3(eps)
        let b11 = Self.sinSeries(ssig1, csig1, c1a)
        let (sb11, cb11) = (Foundation.sin(b11), Foundation.cos(b11))
        let stau1 = ssig1 * cb11 + csig1 * sb11   // τ1 = σ1 + B11
        let ctau1 = csig1 * cb11 - ssig1 * sb11
        let b31 = Self.sinSeries(ssig1, csig1, c3a)
        let a3c = -flattening * salp0 * a3(eps)

        // Distance → τ12 → σ12 by the reverted series (paper eqs. 20–21).
        let tau12 = distance / (b * (1 + a1m1))
        let (stau12, ctau12) = (Foundation.sin(tau12), Foundation.cos(tau12))
        let b12 = -Self.sinSeries(stau1 * ctau12 + ctau1 * stau12, ctau1 * ctau12 - stau1 * stau12, c1pa)
        let sig12 = tau12 - (b12 - b11)
        let (ssig12, csig12) = (Foundation.sin(sig12), Foundation.cos(sig12))
        let ssig2 = ssig1 * csig12 + csig1 * ssig12
        var csig2 = csig1 * csig12 - ssig1 * ssig12

        let sbet2 = calp0 * ssig2
        var cbet2 = Foundation.hypot(salp0, calp0 * csig2)
        if cbet2 == 0 {  // at a pole: keep the azimuth meaningful
            cbet2 = Self.tiny
            csig2 = Self.tiny
        }
        let salp2 = salp0, calp2 = calp0 * csig2
        let somg2 = salp0 * ssig2, comg2 = csig2
        // ω12 unrolled through the sign of sin α0, then λ12 = ω12 − f sin α0 I3 (paper eq. 8).
        let e = Double(signOf: salp0, magnitudeOf: 1)
        let omg12 = e * (sig12 - (Foundation.atan2(ssig2, csig2) - Foundation.atan2(ssig1, csig1))
                         + (Foundation.atan2(e * somg2, comg2) - Foundation.atan2(e * somg1, comg1)))
        let lam12 = omg12 + a3c * (sig12 + (Self.sinSeries(ssig2, csig2, c3a) - b31))
        let lon12 = lam12 / Self.degree
        let longitude2 = GeoCoordinate.normalizedLongitude(
            GeoCoordinate.normalizedLongitude(longitude1) + GeoCoordinate.normalizedLongitude(lon12))
        let latitude2 = Trigonometry.atan2Degrees(sbet2, f1 * cbet2)
        return (latitude2, longitude2, Trigonometry.atan2Degrees(salp2, calp2))
    }
}
