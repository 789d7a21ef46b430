public enum MapSnapshotPlaceholder {}
