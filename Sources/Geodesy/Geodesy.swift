public enum GeodesyPlaceholder {}
