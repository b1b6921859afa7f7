// The detector's and depth estimator's public API takes inference options and throws inference
// errors, so whoever uses Perception sees the wrapper's types without a second import.
@_exported import Inference
