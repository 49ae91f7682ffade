// Core layer: what this folder owns is in its README.md.
