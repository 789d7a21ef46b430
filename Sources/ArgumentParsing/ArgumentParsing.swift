public enum ArgumentParsingPlaceholder {}
