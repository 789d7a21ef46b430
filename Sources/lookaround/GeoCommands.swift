enum GeoCommands: CommandGroup {
    static let name = "geo"
    static let abstract = "Geodesy on the WGS84 ellipsoid: distances, destinations, map tiles."
    static var commands: [any Command.Type] { [] }
}
