"""Smart Go board firmware: the same package runs on the device, in the simulator and in tests."""
