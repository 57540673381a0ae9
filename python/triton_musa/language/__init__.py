"""Device-side language extensions for MUSA (libdevice math bindings)."""
