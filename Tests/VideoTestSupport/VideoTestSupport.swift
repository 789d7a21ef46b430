// Recordings in cameras' layouts for tests and benchmarks.
