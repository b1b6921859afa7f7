// The Perception module: detection, depth and geometry.
