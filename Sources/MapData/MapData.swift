public enum MapDataPlaceholder {}
