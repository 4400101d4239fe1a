"""The drift rules, one module (or package of modules) per family: a rule's family is where it lives.

`families/values/intdiv.py` holds a "values" rule; `families/bmesh.py` the "bmesh" rules. `rules.pack` lists the
modules in the order their rules apply.
"""
