"""The C library, for what Python does not wrap: prctl (death signal, dumpable, subreaper) and fflush of C streams."""

import ctypes

LIBC = ctypes.CDLL(None)
PR_SET_PDEATHSIG, PR_SET_DUMPABLE, PR_SET_CHILD_SUBREAPER = 1, 4, 36
