from .geom import *
from .objects import link_new
