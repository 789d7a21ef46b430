public enum CatalogPlaceholder {}
