func runCodecBenchmarks() throws { print("   (codec benchmarks arrive with the codecs branch)") }
