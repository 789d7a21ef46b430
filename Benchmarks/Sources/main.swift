print("bench")
runCodecBenchmarks()
