"""chimeraboost: is the model any good, compared with what?"""

__version__ = "0.1.0"
