/// Every node's coordinate by id, in 16 bytes a node instead of a dictionary's 40 or so: the part of
/// reading an extract that grows with its size (5.3 million nodes in a 50 MB extract).
///
/// Sorted extracts (every PBF from Geofabrik, osmium and planet dumps) give their nodes in increasing
/// id order, each on PBF's 100-nanodegree grid: those go into parallel arrays (id, latitude and
/// longitude in 1e-7 degrees as `Int32`) and are found by binary search. A coordinate goes back out as
/// exactly the `Double` it came in as, or it is not stored that way: a node out of order, repeated, or
/// off the grid (XML with more decimals) goes into a dictionary beside the arrays, which lookups try
/// first. Lookups are O(log n).
struct NodeCoordinateTable {
    private var ids: [Int64] = []
    private var latitudes: [Int32] = []
    private var longitudes: [Int32] = []
    private var others: [Int64: OSMCoordinate] = [:]

    /// The number of coordinates stored (a repeated id counts once per time it was set).
    var count: Int { ids.count + others.count }

    /// A coordinate in 1e-7 degrees, when it goes back to exactly `value`.
    @inline(__always)
    private static func grid(_ value: Double) -> Int32? {
        let scaled = (value * 1e7).rounded()
        guard abs(scaled) <= Double(Int32.max) else { return nil }
        let units = Int32(scaled)
        return Double(units) / 1e7 == value ? units : nil
    }

    subscript(id: Int64) -> OSMCoordinate? {
        get {
            if !others.isEmpty, let c = others[id] { return c }
            guard let k = index(of: id) else { return nil }
            return OSMCoordinate(latitude: Double(latitudes[k]) / 1e7, longitude: Double(longitudes[k]) / 1e7)
        }
        set {
            guard let c = newValue else {
                others[id] = nil
                if let k = index(of: id) { ids.remove(at: k); latitudes.remove(at: k); longitudes.remove(at: k) }
                return
            }
            if ids.last.map({ $0 < id }) ?? true, others[id] == nil,
               let latitude = Self.grid(c.latitude), let longitude = Self.grid(c.longitude) {
                ids.append(id); latitudes.append(latitude); longitudes.append(longitude)
            } else {
                others[id] = c
            }
        }
    }

    /// The position of `id` in the sorted arrays.
    @inline(__always)
    private func index(of id: Int64) -> Int? {
        ids.withUnsafeBufferPointer { ids in
            var low = 0, high = ids.count
            while low < high {
                let middle = (low + high) / 2
                if ids[middle] < id { low = middle + 1 } else { high = middle }
            }
            return low < ids.count && ids[low] == id ? low : nil
        }
    }
}
