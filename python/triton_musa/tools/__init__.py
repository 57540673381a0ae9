"""triton-musa tools: ahead-of-time compilation (``python -m triton_musa.tools.compile``)
and the pre-TensorDescriptor TMA helpers (``triton.tools.experimental_descriptor``)."""
