// Placeholder; filled in with the probe.
print("probe")
