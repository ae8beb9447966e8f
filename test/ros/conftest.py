"""x."""
import os
X = 1
