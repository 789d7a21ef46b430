public enum LookAroundPlaceholder {}
