"""Triton plugin point: Triton imports ``triton_musa.backend.compiler`` and
``triton_musa.backend.driver`` by name, so nothing needs to be re-exported here."""
