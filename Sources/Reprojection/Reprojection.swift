public enum ReprojectionPlaceholder {}
