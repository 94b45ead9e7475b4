"""Reproductions of the source papers' own examples that are not structures of panels and hinges.

:mod:`.dns_paper` and :mod:`.dns_chrono`: the four multibody examples of Betsch & Leyendecker's discrete null
space paper (Part II, sec. 5), integrated by the reference engine's schemes on its director-form bodies and by
Chrono on the same data. They reach both engines' internals on purpose (the schemes and bodies compared are
those internals), which an analysis of a structure never does (``tests/test_layers.py``); they sit at the
analyses' level of the data flow, below the report and the command line.
"""
