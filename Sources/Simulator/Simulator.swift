public enum SimulatorPlaceholder {}
