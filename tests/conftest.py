"""The tests' shared helpers (conformance.py, strategies.py, solver_reference.py) live in this folder,
which pytest puts on the import path for the tests of its subfolders too."""
