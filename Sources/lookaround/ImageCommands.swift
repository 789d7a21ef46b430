enum ImageCommands: CommandGroup {
    static let name = "image"
    static let abstract = "Image files: metadata, resizing, comparison."
    static var commands: [any Command.Type] { [] }
}
